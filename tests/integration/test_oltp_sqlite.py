"""The sysbench-style workload end to end on SQLite: load, each test type, JSON, verify."""
import json
import os
import unittest

import jsonschema

import harness
from harness import storebench, tmp_path


class OltpSqliteTest(unittest.TestCase):
    def test_load_run_every_test_type(self):
        db = tmp_path("it-oltp.db")
        harness.remove_sqlite(db)
        url = "sqlite://" + db
        common = ["--workload", "oltp", "--db", url, "--tables", "2", "--table_size", "20000"]
        r = storebench("oltp", "load", *common)
        self.assertEqual(r.returncode, 0, r.stderr)
        # Not a terminal: plain progress lines, no control characters, the data-in line with
        # the rows loaded before the index message.
        self.assertNotIn("\r", r.stderr)
        self.assertNotIn("\x1b", r.stderr)
        lines = r.stderr.splitlines()
        done = [i for i, l in enumerate(lines) if l.startswith("load: data in, 40,000 rows in ")]
        self.assertEqual(len(done), 1, r.stderr)
        self.assertIn("building indexes", lines[done[0] + 1])
        with open(os.path.join(harness.ARGS.source, "docs", "output-schema.json")) as f:
            schema = json.load(f)
        per_txn = {"read_write": (14, 4, 2), "read_only": (14, 0, 2), "write_only": (0, 4, 2),
                   "point_select": (1, 0, 0), "update_index": (0, 1, 0),
                   "update_non_index": (0, 1, 0), "insert": (0, 1, 0), "delete": (0, 1, 0)}
        for test, (reads, writes, other) in per_txn.items():
            # 1 s: the checks need transactions (hundreds in 1 s), not a long run.
            out = tmp_path(f"it-oltp-{test}.json")
            r = storebench("oltp", "run", *common, "--test", test, "--threads", "2",
                           "--duration", "1s", "--warmup", "0", "--json", out)
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
        # A run asking for other tables than loaded is refused.
        r = storebench("oltp", "run", "--workload", "oltp", "--db", url, "--tables", "2",
                       "--table_size", "30000", "--duration", "1s")
        self.assertEqual(r.returncode, 2, r.stderr)


if __name__ == "__main__":
    harness.main()
