"""A full disk never leaves an output cut short, empty or half-written behind a success: an
output that cannot be written whole ends the command with exit 1 and a sentence naming the
file, and nothing is left at its path (no 0-byte file, no temporary file). The disk is a small
tmpfs of the test's own, filled to the last byte (skipped where mounting is not permitted);
/dev/full stands for a device that refuses every write."""
import json
import os
import subprocess
import tempfile
import unittest

import harness
from harness import storebench, tmp_path


class FullDiskTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.results = []
        for i in range(2):
            out = tmp_path(f"full-disk-run{i}.json")
            r = storebench("oltp", "run", "--workload", "noop", "--db", "null://",
                           "--run_time", "1s", "--warmup_time", "0", "--json", out)
            assert r.returncode == 0, r.stderr
            cls.results.append(out)
        cls.mount = tempfile.mkdtemp(prefix="sb-full-")
        r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", cls.mount],
                           capture_output=True, text=True)
        cls.mounted = r.returncode == 0
        if cls.mounted:  # filled below; tearDownClass unmounts (also after a failed case)
            filler = os.path.join(cls.mount, "filler")
            fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
            try:
                while True:
                    os.write(fd, b"x" * 512)
            except OSError:  # ENOSPC: the disk is full
                pass
            os.close(fd)

    @classmethod
    def tearDownClass(cls):
        if cls.mounted:
            subprocess.run(["umount", cls.mount], capture_output=True)
        os.rmdir(cls.mount)

    def groups(self):
        return [f"A={self.results[0]}", f"B={self.results[1]}"]

    def full(self):
        if not self.mounted:
            self.skipTest("cannot mount a tmpfs here (needs root)")
        return self.mount

    def assertFailedWithout(self, r, path):
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn(path, r.stderr)
        self.assertFalse(os.path.exists(path), f"{path} left behind")
        leftovers = [n for n in os.listdir(os.path.dirname(path)) if n != "filler"]
        self.assertEqual(leftovers, [], "temporary files left behind")

    def test_compare_outputs_on_a_full_disk(self):
        d = self.full()
        for option in ("--json", "--csv"):
            out = os.path.join(d, "cmp.out")
            self.assertFailedWithout(storebench("compare", *self.groups(), option, out), out)

    def test_report_on_a_full_disk(self):
        out = os.path.join(self.full(), "report.html")
        self.assertFailedWithout(storebench("report", *self.results, "-o", out), out)

    def test_series_csv_and_power_csv_on_a_full_disk(self):
        d = self.full()
        out = os.path.join(d, "series.csv")
        r = storebench("oltp", "run", "--workload", "noop", "--db", "null://", "--run_time", "1s",
                       "--warmup_time", "0", "--json", tmp_path("full-disk-series.json"),
                       "--series_csv", out)
        self.assertFailedWithout(r, out)
        out = os.path.join(d, "power.csv")
        r = storebench("power", "log", "--duration", "1s", "--power", "cmd:echo 80", "--json",
                       tmp_path("full-disk-power.json"), "--csv", out)
        self.assertFailedWithout(r, out)

    def run_long(self, name, *options):
        """A run planned for 10 minutes with a stream onto the full disk: it must end on the
        first failed write, with exit 1 naming the file, long before its planned end."""
        result = tmp_path(f"full-disk-{name}.json")
        if "--workload" not in options:
            options = ("--workload", "noop", "--db", "null://", *options)
        r = storebench("oltp", "run", "--run_time", "10m", "--warmup_time", "0", "--log_freq",
                       "1", "--json", result, *options, timeout=120)
        with open(result) as f:  # the figures measured up to the failure are kept
            result = json.load(f)
        self.assertLess(result["measured_sec"], 600, "the run went on after the failed write")
        self.assertTrue(any("ended early" in w for w in result["warnings"]), result["warnings"])
        return r

    def test_out_filename_on_a_full_disk(self):
        # DVD Store's status CSV is written beside its path during the run and renamed over it
        # at the end: a failed write ends the run and leaves nothing at the path.
        out = os.path.join(self.full(), "status.csv")
        r = self.run_long("out-filename", "--out_filename", out)
        self.assertFailedWithout(r, out)
        self.assertIn(f"cannot write --out_filename '{out}'", r.stderr)

    def test_tpcc_delivery_log_on_a_full_disk(self):
        # TPC-C's deferred Delivery appends its result file during the run: a failed write
        # ended the delivery thread alone, and the run passed with an empty log (exit 0).
        d = self.full()
        db = tmp_path("full-disk-tpcc.db")
        r = storebench("oltp", "load", "--workload", "tpcc", "--db", f"sqlite://{db}",
                       "--warehouses", "1", "--force")
        self.assertEqual(r.returncode, 0, r.stderr)
        out = os.path.join(d, "delivery.log")
        r = self.run_long("delivery-log", "--workload", "tpcc", "--db", f"sqlite://{db}",
                          "--n_threads", "1", "--delivery", "deferred", "--delivery_log", out)
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn(f"cannot write the delivery log {out}", r.stderr)
        os.remove(out)

    def test_a_stream_and_the_result_both_on_a_full_disk(self):
        # The result cannot be written after the run ended on its op log: both are named.
        d = self.full()
        result, log = os.path.join(d, "run.json"), os.path.join(d, "ops.log")
        r = storebench("oltp", "run", "--workload", "noop", "--db", "null://", "--run_time",
                       "10m", "--warmup_time", "0", "--json", result, "--op_log", log,
                       timeout=120)
        self.assertEqual(r.returncode, 1, r.stderr)
        # (the echo line names every path: the sentences are what is looked for)
        self.assertIn(f"cannot write result file '{result}'", r.stderr)
        self.assertIn(f"cannot write --op_log '{log}'", r.stderr)
        self.assertFalse(os.path.exists(result))
        os.remove(log)

    def test_op_log_stream_on_a_full_disk(self):
        # A stream written during the run cannot be written whole first: a failed write ends
        # the run with exit 1 naming the file, and says the log is incomplete.
        # It ends the run at its next second, not at the planned end.
        out = os.path.join(self.full(), "ops.log")
        r = self.run_long("oplog", "--op_log", out)
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn(f"cannot write --op_log '{out}'", r.stderr)
        self.assertIn("incomplete", r.stderr)
        os.remove(out)

    def test_default_result_on_a_full_disk(self):
        # Without --json the run claims results/<timestamp>.json as an empty file first; a
        # result that cannot be written leaves no 0-byte file there.
        d = self.full()
        r = storebench("oltp", "run", "--workload", "noop", "--db", "null://", "--run_time", "1s",
                       "--warmup_time", "0", cwd=d)
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn("cannot write result file 'results/", r.stderr)
        results = os.path.join(d, "results")
        left = os.listdir(results) if os.path.isdir(results) else []
        self.assertEqual(left, [], "a 0-byte or temporary result left behind")
        if os.path.isdir(results):  # the other cases expect the disk as it was
            os.rmdir(results)

    def test_exec_series_csv_on_a_full_disk(self):
        out = os.path.join(self.full(), "exec-series.csv")
        r = storebench("exec", "--power", "cmd:echo 80", "--json",
                       tmp_path("full-disk-exec.json"), "--series_csv", out, "--", "true")
        self.assertFailedWithout(r, out)

    def test_consolidate_search_file_on_a_full_disk(self):
        # The search's runs go to <stem>-runs beside the search file: a link to a directory
        # with room, so that the search file itself is what meets the full disk.
        d = self.full()
        runs = tempfile.mkdtemp(prefix="full-disk-runs-", dir=harness.ARGS.tmp)
        link = os.path.join(d, "search-runs")
        os.symlink(runs, link)
        plan = tmp_path("full-disk-plan.toml")
        with open(plan, "w") as f:
            f.write('[run]\nwarmup_time = "0s"\nrun_time = "1s"\n\n'
                    '[[group]]\nname = "n"\ncount = 1\nworkload = "noop"\n'
                    'db = "null://n{i}"\n')
        out = os.path.join(d, "search.json")
        try:
            r = storebench("consolidate", "--plan", plan, "--instances", "1..1", "--runs", "1",
                           "--baseline", "units>=1@run", "--search", out)
        finally:
            os.remove(link)
        self.assertFailedWithout(r, out)

    def test_dev_full_is_an_error(self):
        r = storebench("compare", *self.groups(), "--json", "/dev/full")
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn("/dev/full", r.stderr)


if __name__ == "__main__":
    harness.main()
