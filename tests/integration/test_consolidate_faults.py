"""Fault or capacity in a consolidation search on real SQLite files: each failed run is classed
as a capacity miss (a baseline no run can reach, nothing else wrong), a fault (instance 2's
database refuses every order: a trigger aborts each insert into ORDERS, so its worker fails on
errors) or a run that did not start (instance 2 has no database); --rerun_faults runs a faulted
run again, and the search file keeps every run it made."""
import json
import os
import fcntl
import shutil
import sqlite3
import unittest

import harness
from harness import storebench, tmp_path

PLAN = """
[run]
warmup_time = "0s"
run_time = "5m"          # the orders per thread end each run long before
baseline = "{baseline}"

[[group]]
name = "ds"
count = 2
db = "sqlite://{dir}/ds_{{i}}.db"
[group.options]
db_size = "1MB"
n_threads = 1
units_per_thread = 20
"""


class ConsolidateFaultsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tmp_path("it-consolidate-faults")
        shutil.rmtree(cls.dir, ignore_errors=True)
        os.makedirs(cls.dir)
        cls.pristine = os.path.join(cls.dir, "pristine.db")
        r = storebench("oltp", "load", "--db", "sqlite://" + cls.pristine, "--db_size", "1MB",
                       timeout=300)
        assert r.returncode == 0, r.stderr

    def search(self, name, baseline, second, *extra):
        """A search of 1..2 instances in its own directory; `second` makes instance 2's database:
        "good" (a copy), "fault" (a copy whose ORDERS refuses every insert) or "locked" (a copy
        whose storebench lock another process holds for the whole search)."""
        d = os.path.join(self.dir, name)
        os.makedirs(d)
        shutil.copy(self.pristine, os.path.join(d, "ds_1.db"))
        db2 = os.path.join(d, "ds_2.db")
        shutil.copy(self.pristine, db2)
        if second == "fault":
            with sqlite3.connect(db2) as c:
                c.execute("CREATE TRIGGER provoked_fault BEFORE INSERT ON orders "
                          "BEGIN SELECT RAISE(ABORT, 'provoked fault'); END")
        holder = None
        if second == "locked":
            # The flock storebench takes on "<file>.storebench-lock" (the SQLite back end).
            holder = open(db2 + ".storebench-lock", "a")
            fcntl.flock(holder, fcntl.LOCK_EX | fcntl.LOCK_NB)
        plan = os.path.join(d, "plan.toml")
        with open(plan, "w") as f:
            f.write(PLAN.format(dir=d, baseline=baseline))
        path = os.path.join(d, "search.json")
        try:
            r = storebench("consolidate", "--plan", plan, "--instances", "1..2", "--runs", "1",
                           "--search", path, *extra, timeout=300)
        finally:
            if holder is not None:
                holder.close()
        with open(path) as f:
            return r, json.load(f)

    def test_a_baseline_no_run_reaches_is_capacity(self):
        r, s = self.search("capacity", "units>=1000000000@run", "good")
        self.assertEqual(r.returncode, 1, r.stderr)
        run = s["counts"][0]["runs"][0]
        self.assertEqual(run["class"], "capacity")
        self.assertIn("baseline missed", run["class_reason"])
        self.assertIn("FAIL (capacity)", r.stdout)

    def test_a_database_refusing_orders_is_a_fault_and_is_rerun(self):
        r, s = self.search("fault", "units>=10@run", "fault", "--rerun_faults", "2")
        self.assertEqual(r.returncode, 0, r.stderr)  # count 1 passed
        self.assertEqual(s["peak"], 1)
        one, two = s["counts"]
        self.assertEqual(one["runs"][0]["class"], "passed")
        self.assertNotIn("set_aside", one)
        # Count 2: the faulted run set aside twice, then the third counts.
        self.assertEqual(len(two["runs"]), 1)
        self.assertEqual(len(two.get("set_aside", [])), 2)
        runs = two["set_aside"] + two["runs"]
        for run in runs:
            self.assertEqual(run["class"], "fault", run)
            self.assertIn("instance ds_2", run["class_reason"])
            self.assertIn("constraint error", run["class_reason"])
            self.assertTrue(os.path.exists(run["result_file"]), run)
        self.assertEqual(len({run["result_file"] for run in runs}), 3)  # none overwritten
        self.assertEqual([run["run"] for run in two["set_aside"]], [1, 1])
        self.assertIn("FAIL (fault)", r.stdout)
        self.assertEqual(r.stderr.count("it is run again (--rerun_faults)"), 2)

        # Without --rerun_faults the fault counts at once.
        r, s = self.search("fault-once", "units>=10@run", "fault")
        two = s["counts"][1]
        self.assertEqual((len(two["runs"]), len(two.get("set_aside", []))), (1, 0))
        self.assertEqual(two["runs"][0]["class"], "fault")

    def test_a_database_in_use_is_no_start(self):
        r, s = self.search("no-start", "units>=10@run", "locked", "--rerun_faults", "2")
        self.assertNotEqual(r.returncode, 0, r.stderr)
        self.assertFalse(s["finished"])
        two = s["counts"][1]
        self.assertEqual(two["runs"], [])  # not counted: a resumed search runs it again
        self.assertEqual(len(two["set_aside"]), 1)  # and never rerun as a fault
        aside = two["set_aside"][0]
        self.assertEqual(aside["class"], "no_start")
        self.assertIn("ds_2", aside["class_reason"])
        self.assertIn("in use", aside["class_reason"])
        self.assertEqual(aside["result_file"], "")


if __name__ == "__main__":
    harness.main()
