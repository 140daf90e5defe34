"""Honest numbers at the edges: a database run stopped during its warm-up reports no measured
window (as a storage run does) instead of passing the warm-up off as measured; a consolidation
search without a baseline is refused before any count runs (docs/consolidation.md)."""
import json
import os
import shutil
import signal
import subprocess
import time
import unittest

import harness
from harness import storebench, tmp_path


class NumbersAtEdgesTest(unittest.TestCase):
    def test_a_run_stopped_during_warmup_has_no_measured_window(self):
        out = tmp_path("edges-warmup.json")
        if os.path.exists(out):
            os.remove(out)
        proc = subprocess.Popen(
            [harness.ARGS.binary, "oltp", "run", "--workload", "noop", "--db", "null://",
             "--warmup_time", "10m", "--run_time", "10m", "--json", out],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.addCleanup(lambda: proc.poll() is None and proc.kill())
        time.sleep(2)  # units run, all of them in the warm-up
        proc.send_signal(signal.SIGTERM)
        stdout, stderr = proc.communicate(timeout=60)
        self.assertEqual(proc.returncode, 130, stderr)
        with open(out) as f:
            doc = json.load(f)
        self.assertEqual(doc["measured_sec"], 0)
        self.assertEqual(doc["headline"]["value"], 0)
        self.assertEqual(doc["operations"][0]["count"], 0)
        self.assertTrue(any("warm-up" in w for w in doc["warnings"]), doc["warnings"])
        self.assertIn("warm-up", stdout + stderr)
        # The warm-up's units are still in the series, as warm-up.
        points = doc["time_series"]["points"]
        self.assertTrue(points and all(p["phase"] == "warmup" for p in points), points[:2])

    def test_consolidate_without_a_baseline_is_refused_before_any_count_runs(self):
        d = tmp_path("edges-no-baseline")
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        plan = os.path.join(d, "plan.toml")
        with open(plan, "w") as f:
            f.write('[run]\nwarmup_time = "0s"\nrun_time = "2s"\n\n[[group]]\nname = "g"\n'
                    f'count = 1\ndb = "sqlite://{d}/{{i}}.db"\nload = true\n'
                    '[group.options]\ndb_size = "1MB"\n')
        r = storebench("consolidate", "--plan", plan, "--instances", "1..2", "--runs", "1",
                       "--search", os.path.join(d, "s.json"), timeout=120)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("baseline", r.stderr)
        self.assertEqual(sorted(os.listdir(d)), ["plan.toml"])  # nothing loaded, nothing run


if __name__ == "__main__":
    harness.main()
