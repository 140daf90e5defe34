"""What can be checked before a run is checked before it: a window or a baseline's window that
ends after the run (warm-up + run_time from Start; io run: ramp + run_time from each test's
start) is refused with exit 2 and one sentence, before any database or target is locked, loaded
or run -- in oltp run, io run, run --plan and for every count of consolidate, which also needs a
baseline before its first run. Nothing is run: no result or search file is written, no database
or lock file is created, and no status line is printed. A run until stopped (no run_time) has no
known end, so its windows are accepted."""
import os
import shutil
import signal
import subprocess
import time
import unittest

import harness
from harness import storebench, tmp_path


def fresh(*names):
    """Paths in the test directory that do not exist (removed if an earlier run left them)."""
    paths = [tmp_path(n) for n in names]
    for p in paths:
        for suffix in ("", "-wal", "-shm", ".storebench-lock"):
            if os.path.isdir(p + suffix):
                shutil.rmtree(p + suffix)
            elif os.path.exists(p + suffix):
                os.remove(p + suffix)
    return paths


def write_plan(name, run_section, groups):
    path = tmp_path(name)
    with open(path, "w") as f:
        f.write("[run]\n" + run_section + "\n" + groups)
    return path


NOOP_GROUP = ('[[group]]\nname = "n"\ncount = 1\nworkload = "noop"\ndb = "null://{i}"\n'
              '[group.options]\nn_threads = 1\n')


class RefusedBeforeTheRun:
    def assertRefusedBeforeTheRun(self, r, words, *must_not_exist):
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertEqual(r.stdout, "", "no status line: nothing ran")
        lines = r.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, r.stderr)
        self.assertTrue(lines[0].startswith("storebench: "), r.stderr)
        for w in words:
            self.assertIn(w, r.stderr)
        for path in must_not_exist:
            self.assertFalse(os.path.exists(path), path + " was written")


class OltpRunTest(RefusedBeforeTheRun, unittest.TestCase):
    def test_window_after_the_run_is_refused_before_it(self):
        out, = fresh("checks-window.json")
        r = storebench("oltp", "run", "--workload=noop", "--db", "null://", "--warmup_time=0",
                       "--run_time", "2s", "--window", "30s-50s", "--json", out)
        self.assertRefusedBeforeTheRun(
            r, ["--window 30s-50s ends 50 s from Start, after the run, which ends 2 s from Start",
                "warmup_time 0s + run_time 2s"], out)

    def test_baseline_window_after_the_run_is_refused_before_any_database_is_touched(self):
        # A SQLite file that does not exist: the refusal comes before the lock file or the
        # database would be created (and before "does not exist" would be said).
        db, out = fresh("checks-none.db", "checks-baseline.json")
        r = storebench("oltp", "run", "--db", "sqlite://" + db, "--warmup_time=1s",
                       "--run_time=2s", "--baseline", "opm>=1@1s-4s", "--json", out)
        self.assertRefusedBeforeTheRun(
            r, ["--baseline 'opm>=1@1s-4s': its window ends 4 s from Start",
                "which ends 3 s from Start (warmup_time 1s + run_time 2s)"],
            out, db, db + ".storebench-lock")
        # Each database of a target list is one instance; the sentence names the first.
        r = storebench("oltp", "run", "--db", f"sqlite://{db};sqlite://{db}2", "--n_threads=2",
                       "--warmup_time=0", "--run_time=2s", "--window=0s-3s", "--json", out)
        self.assertRefusedBeforeTheRun(r, ["instance 1 (sqlite://", "--window 0s-3s ends 3 s"],
                                       out, db, db + ".storebench-lock")

    def test_windows_within_the_run_and_runs_until_stopped_are_accepted(self):
        out, = fresh("checks-within.json")
        r = storebench("oltp", "run", "--workload=noop", "--db", "null://", "--warmup_time=0",
                       "--run_time=1s", "--window=0s-1s", "--baseline=ops>=1@0s-1s",
                       "--json", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertTrue(os.path.exists(out))
        # No run_time: the run's end is not known, so the window cannot be judged before it.
        out, = fresh("checks-until-stopped.json")
        p = subprocess.Popen([harness.ARGS.binary, "oltp", "run", "--workload=noop", "--db",
                              "null://", "--warmup_time=0", "--run_time=0",
                              "--window=30s-50s", "--json", out],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            time.sleep(1.5)
            running = p.poll() is None
        finally:
            p.send_signal(signal.SIGINT)
            _, err = p.communicate(timeout=60)
        self.assertTrue(running, "refused or ended at once: " + err)
        self.assertEqual(p.returncode, 130, err)
        self.assertTrue(os.path.exists(out), err)


class IoRunTest(RefusedBeforeTheRun, unittest.TestCase):
    def test_window_after_the_test_is_refused_before_any_target_is_opened(self):
        target, out = fresh("checks-none.tst", "checks-io.json")
        r = storebench("io", "run", "--target", target, "--spec", "4KiB,100%read",
                       "--run_time", "2", "--window", "1s-3s", "--json", out)
        self.assertRefusedBeforeTheRun(
            r, ["--window 1s-3s ends 3 s from the test's start, after the run, which ends 2 s",
                "ramp_time 0s + run_time 2s"], out, target)
        r = storebench("io", "run", "--target", target, "--spec", "4KiB,100%read",
                       "--run_time", "2", "--ramp_time", "1", "--baseline", "iops>=1@0s-4s",
                       "--json", out)
        self.assertRefusedBeforeTheRun(r, ["--baseline 'iops>=1@0s-4s': its window ends 4 s"],
                                       out, target)


class PlanTest(RefusedBeforeTheRun, unittest.TestCase):
    def test_run_plan_is_refused_before_any_database_is_loaded(self):
        db, out = fresh("checks-plan-1.db", "checks-plan.json")
        plan = write_plan(
            "checks-plan.toml", 'warmup_time = "0s"\nrun_time = "2s"\nwindow = "30s-50s"\n',
            '[[group]]\nname = "d"\ncount = 1\nworkload = "dvdstore"\n'
            f'db = "sqlite://{db[:-5]}{{i}}.db"\nload = true\n[group.options]\n'
            'db_size = "1MB"\n')
        r = storebench("run", "--plan", plan, "--json", out)
        self.assertRefusedBeforeTheRun(r, ["--window 30s-50s ends 50 s from Start"], out, db,
                                       db + ".storebench-lock")


class ConsolidateTest(RefusedBeforeTheRun, unittest.TestCase):
    def search_files(self, name):
        search, runs = fresh(name + ".json", name + "-runs")
        return search, runs

    def test_window_after_the_run_is_refused_before_the_first_count(self):
        search, runs = self.search_files("checks-cons-window")
        plan = write_plan("checks-cons.toml", 'warmup_time = "0s"\nrun_time = "1s"\n',
                          NOOP_GROUP)
        r = storebench("consolidate", "--plan", plan, "--instances", "1..2", "--runs", "1",
                       "--baseline", "ops>=1@0s-2s", "--search", search)
        self.assertRefusedBeforeTheRun(
            r, ["--instances 1: ", "--baseline 'ops>=1@0s-2s': its window ends 2 s"],
            search, runs)

    def test_a_count_that_cannot_run_is_refused_before_the_first(self):
        # Two threads spread over the group's instances: 3 instances cannot have one each. The
        # counts 1 and 2 could run; the search is refused before them.
        search, runs = self.search_files("checks-cons-spread")
        plan = write_plan("checks-cons-spread.toml", 'warmup_time = "0s"\nrun_time = "1s"\n',
                          NOOP_GROUP.replace("count = 1\n", "count = 1\nspread_threads = 2\n")
                          .replace("[group.options]\nn_threads = 1\n", ""))
        r = storebench("consolidate", "--plan", plan, "--instances", "1..3", "--runs", "1",
                       "--baseline", "ops>=1@run", "--search", search)
        self.assertRefusedBeforeTheRun(
            r, ["--instances 3: ", "spreads 2 threads over 3 instances"], search, runs)

    def test_no_baseline_is_refused_before_the_first_run(self):
        search, runs = self.search_files("checks-cons-nobaseline")
        plan = write_plan("checks-cons-nb.toml", 'warmup_time = "0s"\nrun_time = "1s"\n',
                          NOOP_GROUP)
        r = storebench("consolidate", "--plan", plan, "--instances", "1..2", "--runs", "1",
                       "--search", search)
        self.assertRefusedBeforeTheRun(r, ["a consolidation search needs a baseline"],
                                       search, runs)


if __name__ == "__main__":
    harness.main()
