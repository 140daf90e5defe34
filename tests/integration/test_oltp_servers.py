"""The sysbench-style workload on the PostgreSQL and MariaDB servers of scripts/services.sh:
load, then each main transaction type with its statement counts, and verify. Servers come from
STOREBENCH_PG_URL / STOREBENCH_MYSQL_URL (database replaced by sbtest_oltp); without a reachable
server the tests skip, unless STOREBENCH_REQUIRE_SERVICES=1, when they fail."""
import json
import os
import socket
import unittest
import urllib.parse

import jsonschema

import harness
from harness import storebench, tmp_path

REQUIRED = os.environ.get("STOREBENCH_REQUIRE_SERVICES") == "1"


def server_url(env, default):
    u = urllib.parse.urlsplit(os.environ.get(env) or default)
    return urllib.parse.urlunsplit((u.scheme, u.netloc, "/sbtest_oltp", "", ""))


def reachable(url):
    u = urllib.parse.urlsplit(url)
    try:
        with socket.create_connection((u.hostname, u.port), timeout=3):
            return True
    except OSError:
        return False


class OltpServerMixin:
    url = None

    def test_load_and_transaction_types(self):
        if not reachable(self.url):
            msg = f"no server at {self.url} (start one with scripts/services.sh start)"
            if REQUIRED:
                self.fail(msg)
            self.skipTest(msg)
        common = ["--workload", "oltp", "--db", self.url, "--tables", "2", "--table_size",
                  "20000"]
        r = storebench("oltp", "load", *common, "--force")
        self.assertEqual(r.returncode, 0, r.stderr)
        r = storebench("oltp", "load", *common)
        self.assertEqual(r.returncode, 2, r.stderr)  # refuses to replace without --force
        with open(os.path.join(harness.ARGS.source, "docs", "output-schema.json")) as f:
            schema = json.load(f)
        per_txn = {"read_write": (14, 4, 2), "point_select": (1, 0, 0),
                   "write_only": (0, 4, 2), "insert": (0, 1, 0), "delete": (0, 1, 0)}
        for test, (reads, writes, other) in per_txn.items():
            out = tmp_path(f"it-oltp-server-{test}.json")
            r = storebench("oltp", "run", *common, "--test", test, "--threads", "4",
                           "--duration", "3s", "--warmup", "0", "--json", out)
            self.assertEqual(r.returncode, 0, test + ": " + r.stderr)
            with open(out) as f:
                doc = json.load(f)
            jsonschema.validate(doc, schema)
            n = doc["figures"]["transactions"]
            self.assertGreater(n, 0, test)
            self.assertEqual(doc["figures"]["reads"], n * reads, test)
            self.assertEqual(doc["figures"]["writes"], n * writes, test)
            self.assertEqual(doc["figures"]["other"], n * other, test)
            self.assertTrue(all(c["passed"] for c in doc["verify"]), (test, doc["verify"]))


class OltpPostgresTest(OltpServerMixin, unittest.TestCase):
    url = server_url("STOREBENCH_PG_URL", "postgresql://storebench@127.0.0.1:5432/sbtest")


class OltpMariadbTest(OltpServerMixin, unittest.TestCase):
    url = server_url("STOREBENCH_MYSQL_URL", "mysql://storebench@127.0.0.1:3306/sbtest")


if __name__ == "__main__":
    harness.main()
