"""Deadlock handling on MariaDB: sysbench's write_only transaction (two updates, then a delete
and an insert of the same id) with many threads on a tiny table deadlocks in InnoDB all the
time. Every deadlock must be counted, rolled back and retried, the run must end normally, and
the table must still hold exactly its rows (each delete matched by its insert)."""
import json
import unittest

import harness
from harness import storebench, tmp_path

URL = harness.server_url("STOREBENCH_MYSQL_URL", "sbtest_deadlock")


class OltpDeadlockTest(unittest.TestCase):
    def test_write_only_with_many_threads_retries_every_deadlock(self):
        harness.require_server(self, URL)
        common = ["--workload", "oltp", "--db", URL, "--tables", "1", "--table_size", "20"]
        r = storebench("oltp", "load", *common, "--force")
        self.assertEqual(r.returncode, 0, r.stderr)
        out = tmp_path("it-oltp-deadlocks.json")
        r = storebench("oltp", "run", *common, "--test", "write_only", "--threads", "32",
                       "--duration", "6s", "--warmup", "0", "--json", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(out) as f:
            doc = json.load(f)
        deadlocks = doc["errors"]["deadlock"]
        self.assertGreater(deadlocks, 0, "no deadlock in 6 s of 32 writers on 20 rows")
        # Each deadlock is retried, none gives up (the retry limit is 10 per transaction).
        self.assertEqual(doc["retries"], deadlocks)
        self.assertEqual(sum(doc["errors"].values()), deadlocks, doc["errors"])
        self.assertIn("Thread", r.stderr)  # the retry messages name their worker
        n = doc["figures"]["transactions"]
        self.assertGreater(n, 0)
        # Only committed transactions count: 4 writes and BEGIN/COMMIT each.
        self.assertEqual(doc["figures"]["writes"], 4 * n)
        self.assertEqual(doc["figures"]["other"], 2 * n)
        checks = {c["name"]: c for c in doc["verify"]}
        self.assertTrue(checks["row_count_matches_client"]["passed"], checks)
        self.assertIn("tables grew by 0 rows", checks["row_count_matches_client"]["detail"])


if __name__ == "__main__":
    harness.main()
