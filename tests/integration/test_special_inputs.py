"""Inputs that are not regular files (/dev/zero, a FIFO) or are larger than any such file ever
is are refused with exit 2 and one sentence, never read without end (README, "Exit status";
docs/limits.md): compare and report inputs, a search file's run file, a csv: power log, a
password_file."""
import json
import os
import unittest

import harness
from harness import storebench, tmp_path


class SpecialInputsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.fifo = tmp_path("special-input.fifo")
        if os.path.exists(cls.fifo):
            os.remove(cls.fifo)
        os.mkfifo(cls.fifo)  # no writer ever opens it: reading it would wait forever

    def assertRefused(self, args, *words):
        r = storebench(*args, timeout=60)
        self.assertEqual(r.returncode, 2, f"{args}: {r.stderr}")
        lines = r.stderr.strip().splitlines()
        self.assertTrue(lines, args)
        for w in words:
            self.assertIn(w, lines[-1], args)

    def test_compare_and_report_refuse_special_files(self):
        out = tmp_path("special-report.html")
        for special, kind in (("/dev/zero", "character device"), (self.fifo, "FIFO")):
            self.assertRefused(["compare", special, special], kind, "not a regular file")
            self.assertRefused(["report", special, "-o", out], kind, "not a regular file")

    def test_report_does_not_read_a_search_files_special_run_file(self):
        search = tmp_path("special-search.json")
        with open(search, "w") as f:
            json.dump({"kind": "storebench consolidation search", "plan": "p.toml",
                       "step": "linear", "instances": {"from": 1, "to": 1},
                       "runs_per_count": 1, "headline": "opm", "finished": True, "peak": 1,
                       "counts": [{"count": 1, "passed": True, "median_run": 0,
                                   "runs_passed": 1,
                                   "runs": [{"result_file": "/dev/zero", "exit_code": 0,
                                             "passed": True, "deciding_figure": 1,
                                             "instance_min": 1, "instance_median": 1,
                                             "aggregate": 1}]}]}, f)
        out = tmp_path("special-search.html")
        r = storebench("report", search, "-o", out, timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(out) as f:
            self.assertIn("not a regular file", f.read())

    def test_power_sources_refuse_special_files(self):
        run = ["oltp", "run", "--workload", "noop", "--db", "null://", "--run_time", "1s",
               "--json", tmp_path("special-power.json")]
        self.assertRefused(run + ["--power", "csv:/dev/zero"], "csv:/dev/zero",
                           "not a regular file")
        self.assertRefused(run + ["--power", f"csv:{self.fifo}"], "FIFO")
        spec = "ipmi://admin@127.0.0.1?password_file=/dev/zero"
        self.assertRefused(["power", "log", "--duration", "1s", "--power", spec, "--json",
                            tmp_path("special-pw.json")], "password_file", "not a regular file")


if __name__ == "__main__":
    harness.main()
