"""Resilience: PostgreSQL is restarted in the middle of a run. Workers reconnect with backoff
and go on; the outage shows in the result (connection_lost errors, reconnects, seconds without
transactions) and the run neither crashes nor hangs past its end. Runs alone (RUN_SERIAL)."""
import json
import os
import socket
import subprocess
import time
import unittest
import urllib.parse

import harness
from harness import tmp_path

REQUIRED = os.environ.get("STOREBENCH_REQUIRE_SERVICES") == "1"


class PostgresRestartTest(unittest.TestCase):
    def test_run_survives_a_restart(self):
        u = urllib.parse.urlsplit(os.environ.get("STOREBENCH_PG_URL")
                                  or "postgresql://storebench@127.0.0.1:5432/storebench_test")
        url = urllib.parse.urlunsplit((u.scheme, u.netloc, "/sbtest_oltp", "", ""))
        try:
            socket.create_connection((u.hostname, u.port), timeout=3).close()
        except OSError:
            if REQUIRED:
                self.fail(f"no PostgreSQL at {url}")
            self.skipTest(f"no PostgreSQL at {url} (scripts/services.sh start)")
        services = os.path.join(harness.ARGS.source, "scripts", "services.sh")
        common = ["--workload", "oltp", "--db", url, "--tables", "1", "--table_size", "10000"]
        r = subprocess.run([harness.ARGS.binary, "oltp", "load", *common, "--force"],
                           capture_output=True, text=True, timeout=300)
        self.assertEqual(r.returncode, 0, r.stderr)
        out = tmp_path("it-fault-pg.json")
        run = subprocess.Popen([harness.ARGS.binary, "oltp", "run", *common, "--test",
                                "read_write", "--threads", "4", "--duration", "15s", "--warmup",
                                "0", "--progress=none", "--json", out],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        time.sleep(4)
        restart = subprocess.run([services, "restart-postgres", "2"], capture_output=True,
                                 text=True, timeout=180)
        self.assertEqual(restart.returncode, 0, restart.stderr)
        start = time.time()
        stdout, stderr = run.communicate(timeout=120)
        self.assertLess(time.time() - start, 60)  # ends on time, does not hang
        self.assertEqual(run.returncode, 0, stderr)
        with open(out) as f:
            doc = json.load(f)
        self.assertGreaterEqual(doc["errors"]["connection_lost"], 1, stderr)
        self.assertGreaterEqual(doc["counters"]["reconnects"], 1, stderr)
        self.assertGreaterEqual(doc["counters"]["seconds_without_units"], 1)
        self.assertEqual(doc["workers"]["failed"], 0)
        # Work resumed after the outage: the last seconds have transactions again.
        self.assertGreater(sum(p["counts"][0] for p in doc["time_series"]["points"][-3:]), 0)
        self.assertIn("reconnecting", stderr)
        self.assertTrue(all(c["passed"] for c in doc["verify"]), doc["verify"])


if __name__ == "__main__":
    harness.main()
