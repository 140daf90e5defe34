"""A stop request is never lost (issue #20): with 1,000 busy workers on two cores the controller
thread may get no CPU for a long time, so the workers read the stop flag themselves. SIGTERM ends
a 10-minute run at once, prints and writes what was measured, and exits 130. (Were the signal
lost, the run would go on for 10 minutes and the test would fail on its 120 s timeout.)"""
import json
import os
import signal
import subprocess
import sys
import time
import unittest

import harness
from harness import storebench, tmp_path


class StopTest(unittest.TestCase):
    def stop_after_start(self, args, marker, out, stream="stderr"):
        if os.path.exists(out):
            os.remove(out)
        p = subprocess.Popen([harness.ARGS.binary, *args], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
        # Wait for the line that says the workers run (a measured second: a stop while 1,000
        # workers still start ends the run before it measured anything, with no result), then stop.
        err_lines = []
        deadline = time.time() + 60
        while time.time() < deadline:
            line = getattr(p, stream).readline()
            if not line:
                break
            err_lines.append(line)
            if marker in line:
                break
        time.sleep(1.0)
        sent = time.monotonic()
        p.send_signal(signal.SIGTERM)
        stdout, rest = p.communicate(timeout=120)
        elapsed = time.monotonic() - sent
        print(f"{args[0]} {args[1]}: SIGTERM to exit {elapsed:.2f} s", file=sys.stderr)
        self.assertEqual(p.returncode, 130, "".join(err_lines) + rest)
        with open(out) as f:
            return json.load(f)

    def test_io_run_with_1000_null_workers_stops(self):
        target = tmp_path("it-stop.tst")
        if os.path.exists(target):
            os.remove(target)
        r = storebench("io", "prepare", "--target", target, "--size", "16MiB")
        self.assertEqual(r.returncode, 0, r.stderr)
        out = tmp_path("it-stop-io.json")
        doc = self.stop_after_start(
            ["io", "run", "--engine", "null", "--workers", "1000", "--outstanding", "1",
             "--spec", "4KiB,100%read,100%random", "--target", target, "--run_time", "10m",
             "--progress", "json", "--json", out], '{"t":', out)
        self.assertTrue(doc["interrupted"])
        self.assertGreater(doc["storage"][0]["totals"]["read_ios"], 0)

    def test_oltp_run_with_1000_null_workers_stops(self):
        out = tmp_path("it-stop-oltp.json")
        doc = self.stop_after_start(
            ["oltp", "run", "--workload=noop", "--db", "null://", "--n_threads", "1000",
             "--ramp_rate", "10000", "--warmup_time", "0", "--run_time", "10m", "--log_freq", "1",
             "--json", out], "issuing Start", out, stream="stdout")
        self.assertTrue(doc["interrupted"])
        self.assertGreater(doc["operations"][0]["count"], 0)


if __name__ == "__main__":
    harness.main()
