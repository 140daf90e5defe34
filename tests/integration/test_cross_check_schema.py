"""The server cross-check's per-schema counts on MariaDB with performance_schema on (the server
`scripts/services.sh start-pfs` starts, which `start-instances` starts too; its URL is
STOREBENCH_MYSQL_PFS_URL): while another client commits transactions in another schema of the
same server, the run's schema's own COMMIT and START TRANSACTION counts (from
events_statements_summary_by_digest) equal the client's and are compared, where SHOW GLOBAL
STATUS counts the other client's too (docs/measurement.md, "Cross-check against the server").
The databases: sbtest_pfs (the run) and sbtest_pfs_other (the other client). Without the server
the case skips, unless STOREBENCH_REQUIRE_SERVICES=1, when it fails."""
import json
import os
import subprocess
import time
import unittest
import urllib.parse

import harness
from harness import storebench, tmp_path

REQUIRED = os.environ.get("STOREBENCH_REQUIRE_SERVICES") == "1"
OLTP = ["--workload=oltp", "--tables=2", "--table-size=1000"]


def other_client(url):
    """A mariadb client committing small transactions in sbtest_pfs_other until killed."""
    u = urllib.parse.urlsplit(url)
    sql = "; ".join(["START TRANSACTION; SELECT SLEEP(0.02); COMMIT"] * 2000)
    return subprocess.Popen(["mariadb", "--no-defaults", "-h", u.hostname, "-P", str(u.port),
                             "-u", u.username, "sbtest_pfs_other", "-e", sql],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


class PerSchemaCrossCheckTest(unittest.TestCase):
    def test_schema_counts_leave_out_another_clients_work(self):
        url = harness.env_url("STOREBENCH_MYSQL_PFS_URL")
        if not harness.reachable(url):
            msg = ("STOREBENCH_MYSQL_PFS_URL does not name a reachable server (scripts/services.sh "
                   "start-pfs, then eval \"$(scripts/services.sh env)\")")
            if REQUIRED:
                self.fail(msg)
            self.skipTest(msg)
        r = storebench("oltp", "prepare", "--db", url, *OLTP, "--force", timeout=120)
        self.assertEqual(r.returncode, 0, r.stderr)
        out = tmp_path("it-xcheck-schema.json")
        other = other_client(url)
        try:
            time.sleep(0.5)  # its session is open and working before the start reading
            self.assertIsNone(other.poll(), "the other client ended before the run")
            r = storebench("oltp", "run", "--db", url, *OLTP, "--threads=2", "--time=2",
                           "--json", out, timeout=120)
            self.assertIsNone(other.poll(), "the other client ended during the run")
        finally:
            other.kill()
            other.wait()
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(out) as f:
            doc = json.load(f)
        self.assertFalse([w for w in doc["warnings"] if "cross-check" in w], doc["warnings"])
        sc = doc["server_check"]
        counters = {c["name"]: c for c in sc["server_counters"]}
        cmp = {c["name"]: c for c in sc["comparisons"]}
        # The run's schema's own counts, with their source recorded.
        for name, meaning in (("COMMIT", "commits"), ("START TRANSACTION", "statements.begin")):
            self.assertEqual(counters[name]["meaning"], meaning)
            self.assertIn("events_statements_summary_by_digest", counters[name]["source"])
            self.assertIn("sbtest_pfs'", counters[name]["source"])
        # Compared (not "not compared"), and equal to the client's counts: the other client's
        # transactions, in the server-wide Com_commit, are not in them.
        self.assertEqual(cmp["statements.begin"]["relation"], "==")
        self.assertEqual(cmp["statements.begin"]["client"], cmp["statements.begin"]["server"])
        self.assertTrue(cmp["statements.begin"]["passed"])
        self.assertEqual(cmp["commits"]["relation"], ">=")
        self.assertEqual(cmp["commits"]["client"], cmp["commits"]["server"], cmp["commits"])
        self.assertEqual(counters["COMMIT"]["delta"], cmp["commits"]["client"])
        self.assertGreater(counters["Com_commit"]["delta"], counters["COMMIT"]["delta"])
        self.assertIn("server-wide", counters["Com_commit"]["source"])
        # The statement kinds that MariaDB counts server-wide only (prepared statements have no
        # digest) are still not compared while another session works.
        self.assertEqual(cmp["statements.select"]["relation"], "not compared")


if __name__ == "__main__":
    harness.main()
