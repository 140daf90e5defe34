"""Deadlock handling on MariaDB and PostgreSQL: sysbench's write_only transaction (two updates, then a delete
and an insert of the same id) with many threads on a tiny table deadlocks in InnoDB all the
time. Every deadlock must be counted, rolled back and retried, the run must end normally, and
the table must still hold exactly its rows (each delete matched by its insert)."""
import json
import unittest

import harness
from harness import storebench, tmp_path

URL = harness.server_url("STOREBENCH_MYSQL_URL", "sbtest_deadlock")
PG_URL = harness.server_url("STOREBENCH_PG_URL", "sbtest_deadlock")


class OltpDeadlockTest(unittest.TestCase):
    def test_write_only_with_many_threads_retries_every_deadlock(self):
        harness.require_server(self, URL)
        common = ["--workload", "oltp", "--db", URL, "--tables", "1", "--table_size", "20"]
        r = storebench("oltp", "load", *common, "--force")
        self.assertEqual(r.returncode, 0, r.stderr)
        out = tmp_path("it-oltp-deadlocks.json")
        # 2 s: InnoDB finds dozens of deadlocks a second here. --ramp_rate 1000 opens the 32
        # connections at once instead of over DVD Store's 3.2 s (10 a second).
        r = storebench("oltp", "run", *common, "--test", "write_only", "--threads", "32",
                       "--duration", "2s", "--warmup", "0", "--ramp_rate", "1000", "--json", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(out) as f:
            doc = json.load(f)
        deadlocks = doc["errors"]["deadlock"]
        self.assertGreater(deadlocks, 0, "no deadlock in 2 s of 32 writers on 20 rows")
        # Each deadlock is retried, none gives up (the retry limit is 10 per transaction).
        self.assertEqual(doc["retries"], deadlocks)
        self.assertEqual(sum(doc["errors"].values()), deadlocks, doc["errors"])
        self.assertIn("Thread", r.stderr)  # the retry messages name their worker
        n = doc["figures"]["transactions"]
        self.assertGreater(n, 0)
        # Every completed statement counts, a retried attempt's too, as sysbench counts each
        # query it ran: the statements sent less the failed ones, at least 4 writes and
        # BEGIN/COMMIT per committed transaction.
        c = doc["counters"]
        done = lambda k: c["statements_sent." + k] - c["statements_failed." + k]
        self.assertEqual(doc["figures"]["writes"], done("update") + done("delete") + done("insert"))
        self.assertEqual(doc["figures"]["other"], done("begin") + done("commit"))
        self.assertGreaterEqual(doc["figures"]["writes"], 4 * n)
        self.assertGreaterEqual(doc["figures"]["other"], 2 * n)
        checks = {c["name"]: c for c in doc["verify"]}
        self.assertTrue(checks["row_count_matches_client"]["passed"], checks)
        self.assertIn("tables grew by 0 rows", checks["row_count_matches_client"]["detail"])


class OltpRetriedStatementsTest(unittest.TestCase):
    def test_server_counts_of_retried_transactions_agree_exactly(self):
        # PostgreSQL's pg_stat_statements counts per database (this test's own), so no other
        # client's statements reach the comparison. 32 writers on 20 rows fail often (deadlocks,
        # a re-insert racing another's): every retried attempt sends statements the server
        # counts, and the client counts them too.
        harness.require_server(self, PG_URL)
        common = ["--workload", "oltp", "--db", PG_URL, "--tables", "1", "--table_size", "20"]
        r = storebench("oltp", "load", *common, "--force")
        self.assertEqual(r.returncode, 0, r.stderr)
        out = tmp_path("it-oltp-retried-statements.json")
        # 2 s and the connections opened at once: dozens of retries a second here.
        r = storebench("oltp", "run", *common, "--test", "write_only", "--threads", "32",
                       "--time", "2", "--ramp_rate", "1000", "--json", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(out) as f:
            doc = json.load(f)
        self.assertGreater(doc["retries"], 0, "no retried transaction in 2 s of 32 writers")
        sc = doc["server_check"]
        cmp = {c["name"]: c for c in sc["comparisons"]}
        if "statements.begin" not in cmp:
            self.skipTest("pg_stat_statements is not loaded on this server")
        for kind in ("begin", "update", "delete", "insert"):
            c = cmp["statements." + kind]
            self.assertTrue(c["passed"], (kind, c))
            self.assertEqual(c["client"], c["server"], (kind, c))
        # More BEGINs than committed transactions: the retried attempts' are counted.
        self.assertGreater(cmp["statements.begin"]["client"], sc["client_units"])
        self.assertTrue(all(c["passed"] for c in sc["comparisons"]), sc["comparisons"])


if __name__ == "__main__":
    harness.main()
