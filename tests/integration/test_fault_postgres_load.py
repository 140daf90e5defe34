"""PostgreSQL goes away in the middle of a DVD Store load: the load stops with one clear
sentence and exit status 1 (a failed load, not bad input), the half-loaded database is
reported as such by run and verify, and `load --force` redoes it. Uses the sbtest_fault_load
database; RUN_SERIAL (it restarts the server)."""
import os
import subprocess
import time
import unittest

import harness
from harness import storebench

URL = harness.server_url("STOREBENCH_PG_URL", "sbtest_fault_load")


class PostgresLoadFaultTest(unittest.TestCase):
    def test_server_lost_during_load_is_reported_and_force_redoes_it(self):
        harness.require_server(self, URL)
        services = os.path.join(harness.ARGS.source, "scripts", "services.sh")
        common = ["--db", URL, "--db_size=S"]
        load = subprocess.Popen([harness.ARGS.binary, "oltp", "load", *common, "--force"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        time.sleep(3)  # the S data phase takes well over 3 s
        self.assertIsNone(load.poll(), "the load finished before the server went away")
        restart = subprocess.run([services, "restart-postgres", "2"], capture_output=True,
                                 text=True, timeout=180)
        self.assertEqual(restart.returncode, 0, restart.stderr)
        _, stderr = load.communicate(timeout=120)
        self.assertEqual(load.returncode, 1, stderr)
        last = stderr.strip().splitlines()[-1]
        self.assertTrue(last.startswith("storebench: "), stderr)
        self.assertNotIn("\n", last)

        # The half-loaded database is named as such, not used.
        r = storebench("oltp", "run", *common, "--run_time=1", "--warmup_time=0")
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("did not finish", r.stderr)
        self.assertIn("--force", r.stderr)
        r = storebench("oltp", "verify", "--db", URL)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("did not finish", r.stderr)

        # A load without --force refuses to touch it; with --force it is redone and verifies.
        r = storebench("oltp", "load", *common)
        self.assertEqual(r.returncode, 2, r.stderr)
        r = storebench("oltp", "load", *common, "--force")
        self.assertEqual(r.returncode, 0, r.stderr)
        r = storebench("oltp", "verify", "--db", URL)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)


if __name__ == "__main__":
    harness.main()
