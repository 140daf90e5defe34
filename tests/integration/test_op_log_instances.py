"""--op_log in a run of several instances, on real SQLite files: every instance writes its own
file (DVD Store 3's target list and a plan), holding exactly the units the result counts for
that instance in whole lines, and two instances that would write one file are refused before
anything runs."""
import json
import os
import re
import shutil
import unittest

import harness
from harness import storebench, tmp_path

# worker type intended_start_us start_us latency_us outcome (src/driver/op_log.h)
LINE = re.compile(r"^(\d+) \S+ -?\d+ -?\d+ \d+ (ok|rollback|error)$")


def fresh_dir(name):
    d = tmp_path(name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    return d


# Three instances with 1, 2 and 3 threads, 30 orders per thread: 30, 60 and 90 lines.
PLAN = """
[run]
warmup_time = "0s"
run_time = "5m"          # the orders per thread end the run long before

[[group]]
name = "one"
db = "sqlite://{dir}/db_1.db"
[group.options]
db_size = "1MB"
n_threads = 1
units_per_thread = 30

[[group]]
name = "two"
db = "sqlite://{dir}/db_2.db"
[group.options]
db_size = "1MB"
n_threads = 2
units_per_thread = 30

[[group]]
name = "three"
db = "sqlite://{dir}/db_3.db"
[group.options]
db_size = "1MB"
n_threads = 3
units_per_thread = 30
"""

# A search over the same databases: 20 orders per instance pass "units>=1@run" at every count.
SEARCH_PLAN = """
[run]
warmup_time = "0s"
run_time = "5m"
baseline = "units>=1@run"

[[group]]
name = "g"
db = "sqlite://{dir}/db_{{i}}.db"
[group.options]
db_size = "1MB"
n_threads = 2
units_per_thread = 10
"""


class OpLogInstancesTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = fresh_dir("it-op-log-instances")
        cls.dbs = [f"sqlite://{cls.dir}/db_{i}.db" for i in (1, 2, 3)]
        for db in cls.dbs:
            r = storebench("oltp", "load", "--db", db, "--db_size", "1MB", timeout=300)
            assert r.returncode == 0, r.stderr
        cls.plan = os.path.join(cls.dir, "plan.toml")
        with open(cls.plan, "w") as f:
            f.write(PLAN.format(dir=cls.dir))

    def check_files(self, doc, files, threads):
        """Each file: the header, then one whole line per unit the instance counted."""
        self.assertEqual(len(doc["instances"]), len(files))
        for inst, path, n in zip(doc["instances"], files, threads):
            with open(path) as f:
                text = f.read()
            self.assertTrue(text.endswith("\n"), path)
            lines = text.splitlines()
            self.assertTrue(lines[0].startswith("# worker type"), path)
            body = lines[1:]
            for line in body:
                m = LINE.match(line)
                self.assertIsNotNone(m, f"{path}: torn or foreign line {line!r}")
                self.assertLess(int(m.group(1)), n, f"{path}: a worker of another instance")
            units = inst["figures"]["n_overall"]
            self.assertGreater(units, 0)
            self.assertEqual(len(body), units, f"{path} against instance {inst.get('name')}")

    def test_target_list_writes_one_file_per_instance(self):
        ops = os.path.join(self.dir, "target-ops.log")
        out = os.path.join(self.dir, "target.json")
        r = storebench("oltp", "run", "--db", ";".join(self.dbs), "--db_size", "1MB",
                       "--n_threads", "2", "--units_per_thread", "40", "--warmup_time", "0",
                       "--run_time", "5m", "--op_log", ops, "--json", out, timeout=300)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(out) as f:
            doc = json.load(f)
        self.assertFalse(os.path.exists(ops), "the shared file was written")
        files = [os.path.join(self.dir, f"target-ops.{i}.log") for i in (1, 2, 3)]
        self.check_files(doc, files, [2, 2, 2])
        self.assertEqual([i["figures"]["n_overall"] for i in doc["instances"]], [80, 80, 80])

    def test_plan_instances_write_their_named_files(self):
        out = os.path.join(self.dir, "plan.json")
        ops = os.path.join(self.dir, "plan-{instance}.ops")
        r = storebench("run", "--plan", self.plan, "--op_log", ops, "--json", out, timeout=300)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(out) as f:
            doc = json.load(f)
        names = [i["name"] for i in doc["instances"]]
        self.assertEqual(names, ["one_1", "two_1", "three_1"])
        files = [os.path.join(self.dir, f"plan-{n}.ops") for n in names]
        self.check_files(doc, files, [1, 2, 3])
        self.assertEqual([i["figures"]["n_overall"] for i in doc["instances"]], [30, 60, 90])

    def test_two_instances_on_one_file_are_refused_before_the_run(self):
        # one_1 (instance 1) and two_1 (instance 2) both land on clash-1-2.log.
        with open(self.plan) as f:
            text = f.read()
        text = text.replace("n_threads = 1\n",
                            f'n_threads = 1\nop_log = "{self.dir}/clash-{{i}}-2.log"\n')
        text = text.replace("n_threads = 2\n",
                            f'n_threads = 2\nop_log = "{self.dir}/x/../clash-1-{{i}}.log"\n')
        plan = os.path.join(self.dir, "clash.toml")
        with open(plan, "w") as f:
            f.write(text)
        out = os.path.join(self.dir, "clash.json")
        r = storebench("run", "--plan", plan, "--json", out, timeout=300)
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn("--op_log: instances one_1 and two_1 would both write", r.stderr)
        self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.dir, "clash-1-2.log")))
        self.assertFalse(os.path.exists(out), "a run started")

    def test_every_run_of_a_search_keeps_its_own_files(self):
        plan = os.path.join(self.dir, "search.toml")
        with open(plan, "w") as f:
            f.write(SEARCH_PLAN.format(dir=self.dir))
        search = os.path.join(self.dir, "search.json")
        ops = os.path.join(self.dir, "search.log")
        r = storebench("consolidate", "--plan", plan, "--instances", "1..2", "--runs", "2",
                       "--search", search, "--op_log", ops, timeout=300)
        self.assertEqual(r.returncode, 0, r.stderr)
        runs = os.path.join(self.dir, "search-runs")
        for count in (1, 2):
            for run in (1, 2):
                with open(os.path.join(runs, f"n{count}-run{run}.json")) as f:
                    doc = json.load(f)
                tag = f"search.n{count}-run{run}"
                if count == 1:  # a run of one instance writes the path itself
                    files = [os.path.join(self.dir, tag + ".log")]
                    doc = {"instances": [doc]}
                else:
                    files = [os.path.join(self.dir, f"{tag}.g_{i}.log") for i in (1, 2)]
                self.check_files(doc, files, [2] * count)
        self.assertFalse(os.path.exists(ops))


if __name__ == "__main__":
    harness.main()
