"""DVD Store --sql_mode=procedures on the PostgreSQL and MariaDB servers of scripts/services.sh:
the same seed and the same number of orders leave the same database state in both SQL modes; a
procedures-mode run with several threads completes and verifies; a database without the
procedures is refused with the command that installs them; SQLite refuses the mode. Uses the
sbtest_dvd database (ctest runs it and test_dvdstore_servers one at a time). Without a
reachable server the server cases skip, unless STOREBENCH_REQUIRE_SERVICES=1, when they fail."""
import json
import os
import unittest
import urllib.parse

import harness
from harness import storebench, tmp_path
from test_dvdstore_servers import REQUIRED, parse_final, reachable, run_client, server_url

SIZE = "--db_size=1MB"  # 2000 customers, 1000 products, 1200 orders: seconds to load
ORDERS = "150"          # per thread, in the same-state runs


# Rows (or, for the large review tables, counts, sums and the newest rows) that a run changes.
STATE_QUERIES = [
    "SELECT orderid, orderdate, customerid, netamount, tax, totalamount FROM ORDERS "
    "ORDER BY orderid",
    "SELECT orderid, orderlineid, prod_id, quantity, orderdate FROM ORDERLINES "
    "ORDER BY orderid, orderlineid",
    "SELECT customerid, orderid, prod_id FROM CUST_HIST ORDER BY orderid, prod_id, customerid",
    "SELECT * FROM CUSTOMERS ORDER BY customerid",
    "SELECT prod_id, quan_in_stock, sales FROM INVENTORY ORDER BY prod_id",
    "SELECT * FROM MEMBERSHIP ORDER BY customerid",
    "SELECT prod_id, date_low, quan_low FROM REORDER ORDER BY prod_id, quan_low",
    "SELECT count(*), sum(review_id), sum(prod_id), sum(stars), sum(customerid) FROM REVIEWS",
    "SELECT * FROM REVIEWS ORDER BY review_id DESC LIMIT 100",
    "SELECT count(*), sum(review_id), sum(customerid), sum(helpfulness) "
    "FROM REVIEWS_HELPFULNESS",
    "SELECT * FROM REVIEWS_HELPFULNESS ORDER BY 1 DESC LIMIT 200",
]


class ProceduresMixin:
    """The same cases for each server; subclasses say how to reach it and query it."""
    url = None
    dialect = None

    @classmethod
    def setUpClass(cls):
        if not reachable(cls.url):
            msg = harness.no_server_message(cls.url)
            if REQUIRED:
                raise AssertionError("STOREBENCH_REQUIRE_SERVICES=1 but " + msg)
            raise unittest.SkipTest(msg)
        cls.states = {}
        cls.finals = {}
        for mode in ("client", "procedures"):
            cls.load()
            r = storebench("oltp", "run", "--db", cls.url, "--n_threads=1", "--warmup_time=0",
                           "--units_per_thread=" + ORDERS, "--seed=11", "--sql_mode=" + mode,
                           "--json", tmp_path(f"proc-{cls.__name__}-{mode}.json"), timeout=300)
            assert r.returncode == 0, r.stdout + r.stderr
            cls.finals[mode] = parse_final(r.stdout)
            cls.states[mode] = [cls.query(q) for q in STATE_QUERIES]
        # 2 s, the connections opened at once (--ramp_rate 1000, not 0.8 s of ramp): the case
        # needs orders from 8 threads at once and a verify, not a long run.
        cls.json_path = tmp_path(f"proc-{cls.__name__}-8.json")
        cls.result = storebench("oltp", "run", "--db", cls.url, "--n_threads=8",
                                "--warmup_time=0", "--run_time=2s", "--ramp_rate=1000",
                                "--sql_mode=procedures", "--json", cls.json_path, timeout=300)

    @classmethod
    def load(cls):
        r = storebench("oltp", "load", "--db", cls.url, SIZE, "--seed=3", "--force")
        assert r.returncode == 0, r.stdout + r.stderr

    def test_same_seed_same_state_in_both_modes(self):
        client, procedures = self.finals["client"], self.finals["procedures"]
        self.assertEqual(client["n_overall"], int(ORDERS))
        self.assertEqual(procedures["n_overall"], int(ORDERS))
        self.assertEqual(client["n_rollbacks_overall"], procedures["n_rollbacks_overall"])
        # The runs changed something worth comparing: new orders beyond the loaded 1200.
        orders = self.states["client"][0]
        self.assertGreater(len(orders), 1200)
        for query, a, b in zip(STATE_QUERIES, self.states["client"],
                               self.states["procedures"]):
            self.assertEqual(a, b, query)

    def test_procedures_run_completes_and_verifies(self):
        self.assertEqual(self.result.returncode, 0, self.result.stdout + self.result.stderr)
        f = parse_final(self.result.stdout)
        self.assertGreater(f["n_overall"], 0)
        self.assertEqual(f["n_purchase_overall"], f["n_overall"])
        with open(self.json_path) as fh:
            doc = json.load(fh)
        self.assertTrue(doc["choices"]["sql_mode"].startswith("procedures:"), doc["choices"])
        self.assertEqual(doc["config"]["sql_mode"], "procedures")
        checks = {c["name"]: c["passed"] for c in doc["verify"]}
        self.assertTrue(all(checks.values()), doc["verify"])
        self.assertIn("committed_orders_match", checks)
        r = storebench("oltp", "verify", "--db", self.url)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)

    # Named to run last (unittest sorts by name): it removes the procedures.
    def test_zz_database_without_procedures_is_refused_until_installed(self):
        # A database as an older storebench loaded it: no procedures, no record of them.
        with open(os.path.join(harness.ARGS.source, "src/workload/dvdstore/sql", self.dialect,
                               "drop_procedures.sql")) as fh:
            drops = [l for l in fh.read().splitlines() if l.startswith("DROP")]
        self.query(" ".join(drops) + " DELETE FROM storebench_meta WHERE "
                   + ("`key`" if self.dialect == "mysql" else "key") + " = 'procedures';")
        r = storebench("oltp", "run", "--db", self.url, "--sql_mode=procedures", "--run_time=1")
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn("holds no storebench stored procedures", r.stderr)
        self.assertIn("--procedures_only=Y", r.stderr)
        r = storebench("oltp", "load", "--db", self.url, "--procedures_only=Y")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        r = storebench("oltp", "run", "--db", self.url, "--sql_mode=procedures",
                       "--warmup_time=0", "--units_per_thread=5", "--json",
                       tmp_path(f"proc-{type(self).__name__}-again.json"))
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)


class DvdStorePostgresProceduresTest(ProceduresMixin, unittest.TestCase):
    url = server_url("STOREBENCH_PG_URL")
    dialect = "postgres"

    @classmethod
    def query(cls, sql):
        return run_client(["psql", "-X", "-A", "-t", "-F", "\t", "-v", "ON_ERROR_STOP=1",
                           "-d", cls.url, "-c", sql])


class DvdStoreMariadbProceduresTest(ProceduresMixin, unittest.TestCase):
    url = server_url("STOREBENCH_MYSQL_URL")
    dialect = "mysql"

    @classmethod
    def query(cls, sql):
        u = urllib.parse.urlsplit(cls.url)
        return run_client(["mariadb", "--no-defaults", "--batch", "--skip-column-names",
                           "-h", u.hostname, "-P", str(u.port), "-u", u.username,
                           u.path.lstrip("/"), "-e", sql])


class SqliteTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.db = "sqlite://" + tmp_path("proc-sqlite.db")
        r = storebench("oltp", "load", "--db", cls.db, SIZE, "--force")
        assert r.returncode == 0, r.stdout + r.stderr

    def test_units_per_thread_ends_the_run_after_that_many_orders(self):
        r = storebench("oltp", "run", "--db", self.db, "--n_threads=2", "--warmup_time=0",
                       "--units_per_thread=7", "--json", tmp_path("proc-sqlite-units.json"))
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertEqual(parse_final(r.stdout)["n_overall"], 14)

    def test_sqlite_refuses_procedures_mode(self):
        db = self.db
        json_path = tmp_path("proc-sqlite.json")
        if os.path.exists(json_path):
            os.remove(json_path)
        r = storebench("oltp", "run", "--db", db, "--sql_mode=procedures",
                       "--run_time=1", "--json", json_path)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("has no stored procedures", r.stderr)
        self.assertIn("--sql_mode=client", r.stderr)
        self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
        self.assertFalse(os.path.exists(json_path))


if __name__ == "__main__":
    harness.main()
