"""DVD Store 3's console as its users' scripts read it, on SQLite files (docs/fidelity.md, "DVD
Store 3"). The expected lines are written from ds3xdriver.cs (github.com/dvdstore/ds3,
ds3/drivers/ds3xdriver.cs), which cannot run here (C#, .NET):
- a target list runs n_threads threads on every target (the driver multiplies n_threads by the
  number of targets and echoes the total in its first line);
- a status line every log_freq seconds including the run's last second, also without warm-up
  (`grep ^et= | tail -1` reads the run's end);
- --ds2_mode=Y keeps every DS3 line on stdout; only "Y" and "N" are taken;
- stdout holds DS3's lines only: its preamble (thread total, parameter echo, Thread N created /
  connected, all threads running), per-target Final and from-start lines under "Individual
  Stats for each DB / Web Server: ", and "Run over" last; storebench's summary is on stderr."""
import json
import os
import re
import shutil
import unittest

import harness
from harness import storebench, tmp_path

SIZE = "1MB"  # 2000 customers: a load takes a second
STATUS_RE = re.compile(r"^et=\s*(?P<et>[\d.]+) n_overall=(?P<n>\d+) opm=\d+ ")


def loaded_copies(name, count):
    """`count` copies of one freshly loaded database, as sqlite:// URLs."""
    base = tmp_path(f"{name}-0.db")
    harness.remove_sqlite(base)
    r = storebench("oltp", "load", "--db", "sqlite://" + base, "--db_size=" + SIZE)
    assert r.returncode == 0, r.stderr
    urls = ["sqlite://" + base]
    for i in range(1, count):
        path = tmp_path(f"{name}-{i}.db")
        harness.remove_sqlite(path, ("-wal", "-shm"))
        shutil.copyfile(base, path)
        urls.append("sqlite://" + path)
    return urls


class Ds3ConsoleTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        # Each case's run mostly waits out its seconds (think time, 1-second status lines), so
        # the four start together here, each on databases of its own (a run locks its
        # database), and each case asserts on its run's output: their seconds overlap instead
        # of adding up. Six copies: three for the target list, one for the status lines, two
        # for the stdout case.
        cls.ds2_db = tmp_path("it-ds3console-ds2.db")
        harness.remove_sqlite(cls.ds2_db)
        ds2_load = harness.storebench_started("oltp", "load", "--db", "sqlite://" + cls.ds2_db,
                                              "--db_size=2MB", "--ds2_mode=Y")
        urls = loaded_copies("it-ds3console", 6)
        cls.urls, cls.single_url, cls.pair = urls[:3], urls[3], urls[4:]
        cls.ds2_load = ds2_load.result()
        cls.runs = {
            "target_list": cls.start_ds3("target_list", "--n_threads=2", "--warmup_time=0",
                                         "--run_time=2s", "--log_freq=1",
                                         db=";".join(cls.urls)),
            "last_status": cls.start_ds3("last_status", "--n_threads=2", "--warmup_time=0",
                                         "--run_time=3s", "--log_freq=1", db=cls.single_url),
            "stdout": cls.start_ds3("stdout", "--n_threads=2", "--warmup_time=1s",
                                    "--run_time=2s", "--log_freq=1", "--detailed_view=Y",
                                    db=";".join(cls.pair)),
        }
        # The DS2 run needs its database loaded; a failed load is the case's failure.
        if cls.ds2_load.returncode == 0:
            cls.runs["ds2"] = cls.start_ds3("ds2", "--ds2_mode=Y", "--n_threads=2",
                                            "--warmup_time=0", "--run_time=2s", "--log_freq=1",
                                            db="sqlite://" + cls.ds2_db)

    @classmethod
    def start_ds3(cls, name, *args, db):
        out = tmp_path(f"it-ds3console-{name}.json")
        if os.path.exists(out):
            os.remove(out)
        # --ramp_rate: all threads connected at once, not 10 a second (the default); no case
        # reads the ramp.
        return out, harness.storebench_started("oltp", "run", "--db", db, "--think_time=0.01",
                                               "--ramp_rate=1000", "--json", out, *args)

    def run_ds3(self, name):
        """The output of the case's run started in setUpClass, and its JSON result."""
        out, future = self.runs[name]
        r = future.result()
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(out) as f:
            return r, json.load(f)

    def test_target_list_runs_n_threads_on_every_target(self):
        r, doc = self.run_ds3("target_list")
        self.assertEqual(doc["workers"]["started"], 6)
        self.assertEqual([i["workers"]["started"] for i in doc["instances"]], [2, 2, 2])
        lines = r.stdout.splitlines()
        self.assertEqual(
            lines[0], "Total number of Threads to be Spawned across multiple servers are "
            "n_threads: 6")
        self.assertTrue(lines[1].startswith("target= " + ";".join(self.urls) + "  n_threads= 6  "),
                        lines[1])
        # Thread t drives target t mod 3, as DS3 hands them out.
        created = sorted(int(m.group(1)) for l in lines
                         if (m := re.match(r"^Thread (\d+): created for User \1$", l)))
        self.assertEqual(created, list(range(6)))
        connected = {int(l.split()[1][:-1]): l.split()[-1] for l in lines
                     if re.match(r"^Thread \d+: connected to ", l)}
        self.assertEqual(connected, {t: self.urls[t % 3] for t in range(6)})
        running = [i for i, l in enumerate(lines) if l.endswith("): all threads running")]
        self.assertEqual(len(running), 1, r.stdout)
        # Per target: the Final lines and the from-start lines, each block under DS3's heading.
        heads = [i for i, l in enumerate(lines)
                 if l == "Individual Stats for each DB / Web Server: "]
        self.assertEqual(len(heads), 2, r.stdout)
        finals = lines[heads[0] + 1:heads[0] + 4]
        self.assertTrue(all(l.startswith("Final: et=") and l.endswith("%  ") for l in finals),
                        finals)
        n = [int(re.search(r" n_overall=(\d+) ", l).group(1)) for l in finals]
        self.assertEqual(n, [i["figures"]["n_overall"] for i in doc["instances"]])
        from_start = lines[heads[1] + 1:heads[1] + 4]
        self.assertTrue(all(l.startswith("n_purchase_from_start= ") for l in from_start))
        self.assertEqual(lines[-1], "Run over")
        # Without detailed_view no per-target status line: every et= line is the whole run's.
        self.assertFalse([l for l in lines if l.startswith("  [")], r.stdout)
        self.assertEqual([l for l in lines if l.startswith("et=")][-1].split()[1], "2.0")

    def test_last_status_line_without_warm_up(self):
        r, doc = self.run_ds3("last_status")
        status = [STATUS_RE.match(l) for l in r.stdout.splitlines() if l.startswith("et=")]
        self.assertEqual([m["et"] for m in status], ["1.0", "2.0", "3.0"], r.stdout)
        # The last line is the run's end: the Final line's orders.
        self.assertEqual(int(status[-1]["n"]), doc["figures"]["n_overall"])

    def test_stdout_is_ds3s_alone_and_the_summary_on_stderr(self):
        r, doc = self.run_ds3("stdout")
        lines = r.stdout.splitlines()
        self.assertEqual(lines[-1], "Run over")
        # `grep opm= | tail -1` reads the whole run's Final line.
        self.assertTrue([l for l in lines if "opm=" in l][-1].startswith("Final: et="))
        self.assertNotIn("verify:", r.stdout)
        self.assertNotIn("instances (2;", r.stdout)
        self.assertIn("verify:", r.stderr)
        self.assertIn("instances (2;", r.stderr)
        # detailed_view=Y: under each status line, each target's, as DS3 prints them.
        heads = [i for i, l in enumerate(lines)
                 if l == "Individual Stats for each DB / Web Server: "]
        status = [i for i, l in enumerate(lines) if l.startswith("et=")]
        self.assertGreaterEqual(len(heads), 2 + 2)  # per status line, then the two closing ones
        for h in heads[:-2]:
            self.assertTrue(lines[h + 1].startswith("et=") and lines[h + 2].startswith("et="))
        self.assertEqual(len(status), 3 * (len(heads) - 2))

    def test_ds2_mode_keeps_stdout_and_takes_only_y_or_n(self):
        db = self.ds2_db
        self.assertEqual(self.ds2_load.returncode, 0, self.ds2_load.stderr)
        r, doc = self.run_ds3("ds2")
        lines = r.stdout.splitlines()
        self.assertTrue([l for l in lines if l.startswith("et=")], r.stdout)
        self.assertTrue([l for l in lines if l.startswith("Final (")], r.stdout)
        self.assertIn(" ds2_mode= Y ", lines[1])
        self.assertEqual(lines[-1], "Run over")
        self.assertFalse([l for l in r.stderr.splitlines() if l.startswith(("et=", "Final ("))])
        for value in ("y", "yes", "1"):
            r = storebench("oltp", "run", "--db", "sqlite://" + db, "--ds2_mode=" + value,
                           "--run_time=1s")
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertIn("ds2_mode", r.stderr)
            self.assertIn("is not Y or N", r.stderr)


if __name__ == "__main__":
    harness.main()
