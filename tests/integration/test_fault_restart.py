"""Resilience: the server is restarted in the middle of a run. Workers reconnect with backoff and
go on; the outage shows in the result (connection_lost errors, reconnects, seconds without
transactions); the run neither crashes nor hangs past its end, and still verifies. PostgreSQL
(fast shutdown) and MariaDB (SIGTERM), each on its sbtest_fault database; RUN_SERIAL (it
restarts the servers)."""
import json
import os
import subprocess
import time
import unittest

import harness
from harness import tmp_path


class RestartMixin:
    url = None
    restart = None  # the scripts/services.sh command

    def test_run_survives_a_restart(self):
        harness.require_server(self, self.url)
        services = os.path.join(harness.ARGS.source, "scripts", "services.sh")
        common = ["--workload", "oltp", "--db", self.url, "--tables", "1", "--table_size",
                  "10000"]
        r = subprocess.run([harness.ARGS.binary, "oltp", "load", *common, "--force"],
                           capture_output=True, text=True, timeout=300)
        self.assertEqual(r.returncode, 0, r.stderr)
        out = tmp_path(f"it-fault-{self.restart}.json")
        run = subprocess.Popen([harness.ARGS.binary, "oltp", "run", *common, "--test",
                                "read_write", "--threads", "4", "--duration", "20s", "--warmup",
                                "0", "--progress=none", "--json", out],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        time.sleep(4)
        restart = subprocess.run([services, self.restart, "2"], capture_output=True, text=True,
                                 timeout=180)
        self.assertEqual(restart.returncode, 0, restart.stderr)
        start = time.time()
        _, stderr = run.communicate(timeout=120)
        self.assertLess(time.time() - start, 60)  # ends on time, does not hang
        self.assertEqual(run.returncode, 0, stderr)
        with open(out) as f:
            doc = json.load(f)
        self.assertGreaterEqual(doc["errors"]["connection_lost"], 1, stderr)
        self.assertGreaterEqual(doc["counters"]["reconnects"], 4, stderr)  # every worker
        self.assertGreaterEqual(doc["counters"]["seconds_without_units"], 1)
        self.assertEqual(doc["workers"]["failed"], 0, stderr)
        # Work resumed after the outage: the last seconds have transactions again.
        self.assertGreater(sum(p["counts"][0] for p in doc["time_series"]["points"][-3:]), 0)
        self.assertIn("reconnecting", stderr)
        self.assertTrue(all(c["passed"] for c in doc["verify"]), doc["verify"])


class PostgresRestartTest(RestartMixin, unittest.TestCase):
    url = harness.server_url("STOREBENCH_PG_URL", "sbtest_fault")
    restart = "restart-postgres"


class MariadbRestartTest(RestartMixin, unittest.TestCase):
    url = harness.server_url("STOREBENCH_MYSQL_URL", "sbtest_fault")
    restart = "restart-mariadb"


if __name__ == "__main__":
    harness.main()
