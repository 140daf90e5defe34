"""Every command's outputs are checked against every file it reads, before anything runs: an
output that names an input (a plan, a database of any count of a search, a copy's source, a
power log, a config or password file) or another output is refused with exit 2, a sentence
naming the output's option, and the input left as it was (README, "Outputs"). The cases
enumerate commands × outputs × inputs."""
import hashlib
import os
import shutil
import sqlite3
import unittest

import harness
from harness import storebench, tmp_path

PLAN = """
[run]
warmup_time = "0s"
run_time = "2s"
baseline = "units>=1@run"

[[group]]
name = "g"
count = 2
db = "sqlite://{dir}/{{i}}.db"
"""


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


class OutputsVsInputsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tmp_path("outputs-vs-inputs")
        shutil.rmtree(cls.dir, ignore_errors=True)
        os.makedirs(cls.dir)
        d = cls.dir
        cls.plan = os.path.join(d, "plan.toml")
        with open(cls.plan, "w") as f:
            f.write(PLAN.format(dir=d))
        for i in (1, 2):  # real SQLite files, as a loaded database is
            con = sqlite3.connect(os.path.join(d, f"{i}.db"))
            con.execute("CREATE TABLE t (x)")
            con.execute("INSERT INTO t VALUES (1)")
            con.commit()
            con.close()
        cls.power_log = os.path.join(d, "power.csv")
        with open(cls.power_log, "w") as f:
            f.write("time,watts\n2026-01-01T00:00:00Z,80\n")
        cls.config = os.path.join(d, "power.conf")
        with open(cls.config, "w") as f:
            f.write("duration=1s\n")
        cls.src = os.path.join(d, "src.bin")
        with open(cls.src, "wb") as f:
            f.write(os.urandom(8192))
        cls.password = os.path.join(d, "bmc.pw")
        with open(cls.password, "w") as f:
            f.write("secret\n")

    def assertRefused(self, args, option, input_path):
        before = digest(input_path)
        r = storebench(*args, timeout=120)
        self.assertEqual(r.returncode, 2, f"{args}: {r.stderr}")
        self.assertIn(option, r.stderr, args)
        self.assertEqual(digest(input_path), before, f"{args} changed {input_path}")

    def test_consolidate_search_file_against_plan_and_every_count_database(self):
        d = self.dir
        for victim in (os.path.join(d, "1.db"), os.path.join(d, "2.db"), self.plan):
            self.assertRefused(["consolidate", "--plan", self.plan, "--instances", "1..2",
                                "--runs", "1", "--search", victim], "--search", victim)

    def test_plan_run_outputs_against_the_plan(self):
        for option in ("--json", "--series_csv"):
            self.assertRefused(["run", "--plan", self.plan, option, self.plan], option, self.plan)

    def test_io_copy_json_against_source_and_destination(self):
        dst = os.path.join(self.dir, "dst.bin")
        shutil.copy(self.src, dst)
        for victim in (self.src, dst):
            self.assertRefused(["io", "copy", self.src, dst, "--json", victim], "--json", victim)

    def test_power_log_outputs_against_each_other_and_its_inputs(self):
        log, conf = self.power_log, self.config
        other = os.path.join(self.dir, "same.out")
        with open(other, "w") as f:
            f.write("keep\n")
        cases = [
            (["--power", "cmd:echo 80", "--csv", other, "--json", other], "--json", other),
            (["--power", "cmd:echo 80", "--config_file", conf, "--json", conf], "--json", conf),
            (["--power", f"csv:{log}", "--csv", log], "--csv", log),
            (["--power", f"csv:{log}", "--json", log], "--json", log),
        ]
        for command in ("log", "idle"):
            for args, option, victim in cases:
                self.assertRefused(["power", command, "--duration", "1s", *args], option, victim)
        # A missing directory fails before the measurement, not after it.
        r = storebench("power", "log", "--duration", "10m", "--power", "cmd:echo 80", "--csv",
                       os.path.join(self.dir, "missing", "p.csv"), timeout=120)
        self.assertEqual(r.returncode, 2, r.stderr)

    def test_power_csv_log_against_run_outputs(self):
        log = self.power_log
        power = ["--power", f"csv:{log}"]
        oltp = ["oltp", "run", "--workload", "noop", "--db", "null://", "--run_time", "1s",
                *power]
        io = ["io", "run", "--target", os.path.join(self.dir, "target.bin"), "--max_size", "1MiB",
              "--run_time", "1s", *power]
        for args, option in [
            (oltp + ["--json", log], "--json"),
            (oltp + ["--series_csv", log], "--series_csv"),
            (oltp + ["--out_filename", log], "--out_filename"),
            (oltp + ["--op_log", log], "--op_log"),
            (io + ["--json", log], "--json"),
            (io + ["--csv", log], "--csv"),
            (io + ["--series_csv", log], "--series_csv"),
            (["exec", *power, "--json", log, "--", "true"], "--json"),
            (["exec", *power, "--series_csv", log, "--", "true"], "--series_csv"),
        ]:
            self.assertRefused(args, option, log)

    def test_password_file_against_outputs(self):
        spec = f"ipmi://admin@127.0.0.1?password_file={self.password}"
        self.assertRefused(["exec", "--power", spec, "--json", self.password, "--", "true"],
                           "--json", self.password)
        self.assertRefused(["power", "log", "--power", spec, "--json", self.password],
                           "--json", self.password)


if __name__ == "__main__":
    harness.main()
