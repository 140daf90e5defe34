"""End-to-end DVD Store on the PostgreSQL and MariaDB servers of scripts/services.sh: load 1MB,
refuse a second load without --force, run 100 orders (20 ms of think time each) on each of 8
threads after a 200-ms warm-up, parse the Final line, verify, cross-check against the server's own counters (committed orders
equal new ORDERS rows exactly; the server committed at least as many transactions), check the
restock semantics (low-stock products never change, no negative stock), and the bad input paths.
The servers come from STOREBENCH_PG_URL / STOREBENCH_MYSQL_URL (the database part is replaced by
sbtest_dvd); without a reachable server the tests skip, unless STOREBENCH_REQUIRE_SERVICES=1,
when they fail."""
import json
import os
import re
import socket
import subprocess
import unittest
import urllib.parse

import jsonschema

import harness
from harness import storebench, tmp_path

REQUIRED = os.environ.get("STOREBENCH_REQUIRE_SERVICES") == "1"
DATABASE = "sbtest_dvd"
SIZE = "1MB"


def server_url(env):
    """The server's URL from the environment, pointed at the test's own database ("" when
    unset: a test never guesses a server's address)."""
    return harness.server_url(env, DATABASE)


reachable = harness.reachable


def run_client(cmd):
    """Runs a database client; returns its rows split on tabs, failing with its message."""
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, f"{cmd[0]} failed: {r.stderr}"
    return [l.split("\t") for l in r.stdout.splitlines() if l]


def parse_final(out):
    line = next(l for l in out.splitlines() if l.startswith("Final ("))
    values = {k: float(v) for k, v in re.findall(r"(\w+)= *(-?[\d.]+)", line)}
    rate = re.search(r" rollback_rate = +(\d+\.\d)%$", line)
    assert rate, line
    values["rollback_rate"] = float(rate.group(1))
    return values


class ServerMixin:
    """The same cases for each server; subclasses say how to reach it and query it."""
    url = None

    @classmethod
    def setUpClass(cls):
        if not reachable(cls.url):
            msg = harness.no_server_message(cls.url)
            if REQUIRED:
                raise AssertionError("STOREBENCH_REQUIRE_SERVICES=1 but " + msg)
            raise unittest.SkipTest(msg)
        # 1MB, not S: the same shares of low-stock products (0.6 %) and of rolled-back orders
        # as S, which took 48 s of MariaDB's 90 s to load (4.5 million rows).
        r = storebench("oltp", "load", "--db", cls.url, "--db_size=" + SIZE, "--force")
        assert r.returncode == 0, r.stdout + r.stderr
        cls.load_output = r.stdout
        cls.low_stock_after_load = cls.query(
            "SELECT prod_id, quan_in_stock FROM INVENTORY WHERE quan_in_stock < 3 ORDER BY prod_id")
        cls.json_path = tmp_path(f"it-{cls.__name__}.json")
        # 100 orders a thread (800), not 20 s: about 1.7 % of orders roll back (a low-stock
        # product), so the ~740 measured leave none with a chance near e^-12, and a slower
        # machine takes longer, not fewer orders (20 s stays the upper bound). Each order thinks
        # 20 ms, so the 200-ms warm-up ends with most orders still to come however fast the
        # machine (unpaced, 560 orders once all finished inside a 1-s warm-up on a quiet machine,
        # leaving no measured window); it still ends with the workers paused for the exact start
        # reading. The connections open at once (--ramp_rate 1000).
        cls.result = storebench("oltp", "run", "--db", cls.url, "--db_size=" + SIZE,
                                "--n_threads=8", "--units_per_thread=100", "--think_time=0.02",
                                "--ramp_rate=1000", "--warmup_time=200ms", "--run_time=20s",
                                "--json", cls.json_path,
                                timeout=300)

    def test_load_reported_rows(self):
        self.assertRegex(self.load_output, r"loaded DVD Store 3 db_size=1MB into .*: \d+ rows in")

    def test_load_records_its_writers(self):
        """storebench_meta's load_session says how the rows went in (docs/dvdstore.md): one
        writer per table, and on MariaDB (Capabilities::split_bulk_writers) the reviews tables
        in two parts of their key, each in a transaction of its own."""
        rows = self.query("SELECT value FROM storebench_meta WHERE " + self.key_column +
                          " = 'load_session'")
        session = rows[0][0]
        self.assertIn("one connection per table", session)
        if self.split_writers:
            self.assertIn("reviews and reviews_helpfulness in 2 contiguous parts", session)
            self.assertIn("unique_checks = 1", session)
        else:
            self.assertNotIn("contiguous parts", session)

    def test_second_load_needs_force(self):
        r = storebench("oltp", "load", "--db", self.url, "--db_size=" + SIZE)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("already holds a DVD Store database", r.stderr)

    def test_run_final_line_and_verify(self):
        self.assertEqual(self.result.returncode, 0, self.result.stdout + self.result.stderr)
        f = parse_final(self.result.stdout)
        self.assertGreater(f["n_overall"], 0)
        self.assertGreater(f["opm"], 0)
        self.assertEqual(f["n_purchase_overall"], f["n_overall"])
        self.assertEqual(f["n_login_overall"] + f["n_newcust_overall"], f["n_overall"])
        self.assertIn("rollback_rate", f)
        with open(self.json_path) as fh:
            doc = json.load(fh)
        checks = {c["name"]: c["passed"] for c in doc["verify"]}
        self.assertTrue(all(checks.values()), doc["verify"])
        self.assertIn("committed_orders_match", checks)
        self.assertIn("sql_mode", doc["choices"])
        self.assertNotIn("FTS5", doc["choices"]["full_text"])
        r = storebench("oltp", "verify", "--db", self.url)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("verify: all checks passed", r.stdout)

    def test_server_cross_check(self):
        self.assertEqual(self.result.returncode, 0, self.result.stdout + self.result.stderr)
        with open(self.json_path) as fh:
            doc = json.load(fh)
        with open(os.path.join(harness.ARGS.source, "docs", "output-schema.json")) as fh:
            jsonschema.validate(doc, json.load(fh))
        sc = doc["server_check"]
        self.assertNotIn("error", sc)
        # The warm-up ended with the workers paused between orders: the start reading is exact.
        self.assertTrue(sc["start_exact"], sc)
        self.assertTrue(sc["counters_settled"], sc)
        cmp = {c["name"]: c for c in sc["comparisons"]}
        orders = cmp["committed_orders_vs_new_orders_rows"]
        self.assertGreater(orders["client"], 0)
        self.assertEqual(orders["client"], orders["server"], sc)
        probe = {p["name"]: p for p in sc["probe"]}
        self.assertEqual(probe["orders"]["delta"], orders["client"])
        # The span is the measured window plus the wind-down: at least the Final line's orders.
        f = parse_final(self.result.stdout)
        self.assertGreaterEqual(orders["client"] + f["n_rollbacks_overall"], f["n_purchase_overall"])
        counters = {c["meaning"]: c for c in sc["server_counters"] if c["meaning"]}
        self.assertGreaterEqual(counters["commits"]["delta"], orders["client"], sc)
        self.assertTrue(cmp["server_commits_vs_committed_orders"]["passed"], sc)
        self.assertTrue(cmp["server_rollbacks_vs_rolled_back_orders"]["passed"], sc)
        self.assertFalse([w for w in doc["warnings"] if "server cross-check" in w], doc["warnings"])
        # storebench's summary is on stderr (stdout is DVD Store 3's); on a server other clients
        # share, the comparisons of server-wide counters may be left out ("not compared").
        self.assertRegex(self.result.stderr, r"server check: (\d) of \1 comparisons agree")

    def test_restock_keeps_low_stock_products_and_no_negative_stock(self):
        self.assertEqual(self.result.returncode, 0, self.result.stderr)
        f = parse_final(self.result.stdout)
        self.assertGreater(f["n_rollbacks_overall"], 0)  # orders of products at 0-2 roll back
        # SQL Server semantics: a product below 3 never changes, and none drops below 3.
        after = self.query(
            "SELECT prod_id, quan_in_stock FROM INVENTORY WHERE quan_in_stock < 3 ORDER BY prod_id")
        self.assertEqual(after, self.low_stock_after_load)
        self.assertEqual(self.query("SELECT count(*) FROM INVENTORY WHERE quan_in_stock < 0"),
                         [["0"]])
        low = self.query("SELECT count(*) FROM REORDER WHERE quan_low >= 3")
        self.assertEqual(low, [["0"]])

    def test_database_without_schema_is_refused(self):
        u = urllib.parse.urlsplit(self.url)
        # Not storebench_test: the back-end unit tests running alongside create tables there.
        other = urllib.parse.urlunsplit((u.scheme, u.netloc, "/sbtest_empty", "", ""))
        r = storebench("oltp", "verify", "--db", other)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertRegex(r.stderr, r"storebench: the database (is empty|holds no storebench)")

    def test_unreachable_server_is_one_clear_sentence(self):
        u = urllib.parse.urlsplit(self.url)
        dead = f"{u.scheme}://storebench@127.0.0.1:1/{DATABASE}"
        r = storebench("oltp", "run", "--db", dead, "--run_time=1")
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("cannot connect to", r.stderr)
        self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)


class DvdStorePostgresTest(ServerMixin, unittest.TestCase):
    url = server_url("STOREBENCH_PG_URL")
    key_column = "key"
    split_writers = False

    @classmethod
    def query(cls, sql):
        return run_client(["psql", "-X", "-A", "-t", "-F", "\t", "-v", "ON_ERROR_STOP=1",
                           "-d", cls.url, "-c", sql])

    def test_load_leaves_every_table_vacuumed_and_analyzed(self):
        """DVD Store's build ends with VACUUM ANALYZE; storebench's load runs it table by table
        in its index phase (sql/postgres/indexes.sql): every DVD Store table was vacuumed and
        analyzed by the load itself (not by autovacuum), the full-text expression indexes have
        their statistics, and every foreign key was validated."""
        tables = ["categories", "customers", "orders", "orderlines", "cust_hist", "products",
                  "inventory", "reorder", "membership", "reviews", "reviews_helpfulness"]
        rows = self.query("SELECT relname, last_vacuum IS NOT NULL, last_analyze IS NOT NULL "
                          "FROM pg_stat_user_tables WHERE relname <> 'storebench_meta' "
                          "ORDER BY relname")
        self.assertEqual(rows, [[t, "t", "t"] for t in sorted(tables)])
        for index in ("ix_prod_actor", "ix_prod_title"):
            n = self.query(f"SELECT count(*) FROM pg_stats WHERE tablename = '{index}'")
            self.assertEqual(n, [["1"]], index)
        fks = self.query("SELECT count(*), count(*) FILTER (WHERE convalidated) "
                         "FROM pg_constraint WHERE contype = 'f' "
                         "AND connamespace = current_schema()::regnamespace")
        self.assertEqual(fks, [["7", "7"]])


class DvdStoreMariadbTest(ServerMixin, unittest.TestCase):
    url = server_url("STOREBENCH_MYSQL_URL")
    key_column = "`key`"
    split_writers = True

    @classmethod
    def query(cls, sql):
        u = urllib.parse.urlsplit(cls.url)
        return run_client(["mariadb", "--no-defaults", "--batch", "--skip-column-names",
                           "-h", u.hostname, "-P", str(u.port), "-u", u.username, DATABASE,
                           "-e", sql])


if __name__ == "__main__":
    harness.main()
