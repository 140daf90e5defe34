"""The TPC-C-like workload through the storebench binary: load, run and verify on a real SQLite
file and on the PostgreSQL and MariaDB servers of scripts/services.sh (database sbtest_tpcc);
NOPM from sum(D_NEXT_O_ID) equal to the client's committed New-Orders on all three back ends;
the consistency checks failing on databases this test tampers with; bad input refused with one
sentence and exit 2; and a plan file naming workload = "tpcc" (two instances).

Servers come from STOREBENCH_PG_URL / STOREBENCH_MYSQL_URL (database replaced by sbtest_tpcc);
without a reachable server those tests skip, unless STOREBENCH_REQUIRE_SERVICES=1."""
import json
import os
import re
import shutil
import sqlite3
import subprocess
import unittest
import urllib.parse

import jsonschema

import harness
from harness import storebench, tmp_path

NOPM_CHECK = "committed_new_orders_vs_d_next_o_id"


def fresh_dir(name):
    d = tmp_path(name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    return d


def load_schema():
    with open(os.path.join(harness.ARGS.source, "docs", "output-schema.json")) as f:
        return json.load(f)


LOG_LINE = re.compile(r"^(\S+Z) (\S+Z) w=(\d+) carrier=(\d+)((?: \d+:(?:\d+|skipped)){10})$")


def check_delivery_log(test, path, doc, delivered_carriers):
    """The deferred Deliveries' result file against the result and the database: one line per
    executed deferred Delivery (the whole run's count, from the delivery_log_complete check),
    each delivered O_ID with that line's carrier in ORDERS (`delivered_carriers`: (w, d, o_id)
    -> O_CARRIER_ID of the orders delivered since the load), no order delivered twice, and the
    skipped districts the counter counts. Returns the lines as (w, carrier, {d: o_id or None})."""
    check = {v["name"]: v for v in doc["verify"]}["delivery_log_complete"]
    test.assertTrue(check["passed"], check)
    ran, skipped_total = map(int, re.search(r"executed (\d+) deferred Deliveries that skipped "
                                            r"(\d+) districts", check["detail"]).groups())
    with open(path) as f:
        text = f.read().splitlines()
    test.assertEqual(len(text), ran)
    test.assertGreater(ran, 0)
    lines, seen, skipped = [], set(), 0
    for line in text:
        m = LOG_LINE.match(line)
        test.assertIsNotNone(m, line)
        queued, completed, w, carrier, rest = m.groups()
        test.assertLessEqual(queued, completed, line)  # ISO 8601 UTC sorts as text
        orders = {}
        for part in rest.split():
            d, o = part.split(":")
            orders[int(d)] = None if o == "skipped" else int(o)
            if o == "skipped":
                skipped += 1
                continue
            key = (int(w), int(d), int(o))
            test.assertNotIn(key, seen, line)
            seen.add(key)
            test.assertEqual(delivered_carriers.get(key), int(carrier), line)
        lines.append((int(w), int(carrier), orders))
    test.assertEqual(skipped, skipped_total)
    # Every order delivered since the load is in the file (the loaded 2100 per district were
    # delivered at load).
    test.assertEqual(seen, set(delivered_carriers))
    return lines


class UndoLog:
    """Statements on a SQLite connection undone afterwards: TEMP triggers on every table write
    the inverse of each changed row (by rowid) to a TEMP table, replayed newest first (the
    undo/redo technique of https://www.sqlite.org/undoredo.html)."""

    def __init__(self, con):
        self.con = con
        con.execute("CREATE TEMP TABLE undo_log (sql TEXT NOT NULL)")
        tables = [t for (t,) in con.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
        for t in tables:
            cols = [c[1] for c in con.execute(f'PRAGMA table_info("{t}")')]
            sets = " || ', ' || ".join(f"'{c} = ' || quote(old.{c})" for c in cols)
            values = " || ', ' || ".join(f"quote(old.{c})" for c in cols)
            con.executescript(f"""
                CREATE TEMP TRIGGER undo_{t}_u AFTER UPDATE ON main.{t} BEGIN
                  INSERT INTO undo_log VALUES ('UPDATE {t} SET ' || {sets} ||
                                               ' WHERE rowid = ' || old.rowid); END;
                CREATE TEMP TRIGGER undo_{t}_d AFTER DELETE ON main.{t} BEGIN
                  INSERT INTO undo_log VALUES ('INSERT INTO {t} (rowid, {", ".join(cols)}) '
                                               || 'VALUES (' || old.rowid || ', ' || {values}
                                               || ')'); END;
                CREATE TEMP TRIGGER undo_{t}_i AFTER INSERT ON main.{t} BEGIN
                  INSERT INTO undo_log VALUES ('DELETE FROM {t} WHERE rowid = ' || new.rowid);
                END;""")

    def run(self, sql):
        self.con.execute("DELETE FROM undo_log")
        self.con.execute(sql)

    def undo(self):
        steps = [q for (q,) in self.con.execute("SELECT sql FROM undo_log ORDER BY rowid DESC")]
        assert steps, "the tampering changed no row"
        self.con.execute("BEGIN")
        for q in steps:
            self.con.execute(q)
        self.con.execute("DELETE FROM undo_log")
        self.con.execute("COMMIT")


# 4 s after 1 s of warm-up: terminals key and think for seconds before their first
# transactions, and the measured window must hold New-Orders.
KEYING_ARGS = ("--keying_and_thinking", "--terminals", "300", "--connections", "2",
               "--run_time", "4s", "--warmup_time", "1s")


class TpccRunMixin:
    """Load 1 warehouse, run 4 workers for 1 s after 0.5 s of warm-up, and check the figures (a
    second is hundreds of transactions on every back end, deferred Deliveries among them; the
    warm-up's end still has its reading, which the NOPM comparison starts from; 2 s after 1 s
    cost 1.5 s more per run, a dozen runs)."""
    url = None

    @staticmethod
    def run_args(url, name, extra=()):
        """The run's command line (its result file is it-tpcc-`name`.json)."""
        return ("oltp", "run", "--workload", "tpcc", "--db", url, "--n_threads", "4",
                "--run_time", "1s", "--warmup_time", "500ms", "--json",
                tmp_path(f"it-tpcc-{name}.json"), *extra)

    def run_and_check(self, name, extra=(), started=None):
        """Runs run_args(self.url, name, extra), or takes the result of `started` (a run of
        run_args started earlier with harness.storebench_started), and checks it."""
        out = tmp_path(f"it-tpcc-{name}.json")
        if started is None:
            r = storebench(*self.run_args(self.url, name, extra), timeout=300)
        else:
            r = started.result()
        self.assertEqual(r.returncode, 0, r.stderr[-3000:] + r.stdout[-3000:])
        with open(out) as f:
            doc = json.load(f)
        jsonschema.validate(doc, load_schema())
        # NOPM as HammerDB counts it equals the New-Orders the client committed.
        comparisons = {c["name"]: c for c in doc["server_check"]["comparisons"]}
        self.assertIn(NOPM_CHECK, comparisons)
        c = comparisons[NOPM_CHECK]
        self.assertTrue(c["passed"], c)
        self.assertEqual(c["client"], c["server"])
        self.assertGreater(c["client"], 0)
        figures = doc["figures"]
        self.assertIn("nopm_dnext", figures)
        headlines = dict(doc["headlines"]) if isinstance(doc["headlines"], list) else doc["headlines"]
        self.assertIn("nopm", headlines)
        self.assertIn("TEST RESULT : System achieved", r.stdout)
        self.assertIn(" NOPM from ", r.stdout)
        for v in doc["verify"]:
            self.assertTrue(v["passed"], v)
        return doc, r

    def hammerdb_procedures_run(self, name):
        """--profile=hammerdb with HammerDB-like procedures (the New-Order procedure draws its
        lines itself) on a database loaded with the profile: committed New-Orders still equal
        the change of sum(D_NEXT_O_ID), the consistency checks hold, half the customers have bad
        credit. Returns the result, its output and the unused-item lines in ORDER-LINE."""
        # One warehouse, the fewest: nothing here depends on their number (two took ~2x the
        # load's time on each server).
        r = storebench("oltp", "load", "--workload", "tpcc", "--db", self.url, "--warehouses",
                       "1", "--profile", "hammerdb", "--force", timeout=600)
        self.assertEqual(r.returncode, 0, r.stderr)
        # ~1,300 New-Orders: at 1 % the unused item comes up (no draw of it: about e^-13).
        # No warm-up: all 3,000 units are measured, however fast the server.
        doc, out = self.run_and_check(name, ("--profile", "hammerdb", "--sql_mode",
                                             "procedures", "--units_total", "3000",
                                             "--run_time", "120s", "--warmup_time", "0"))
        c = doc["choices"]
        self.assertTrue(c["profile"].startswith("hammerdb"), c["profile"])
        self.assertEqual(c["mix"], "hammerdb")
        self.assertTrue(c["delivery"].startswith("in line"), c["delivery"])
        self.assertIn("loaded with 50 %", c["bad_credit"])
        self.assertEqual(doc["warnings"], [])
        return doc, out

    def load(self, warehouses="1"):
        r = storebench("oltp", "load", "--workload", "tpcc", "--db", self.url, "--warehouses",
                       warehouses, "--force", timeout=600)
        self.assertEqual(r.returncode, 0, r.stderr)
        return r


class TpccSqliteTest(TpccRunMixin, unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = fresh_dir("it-tpcc")
        cls.path = os.path.join(cls.dir, "tpcc.db")
        cls.url = "sqlite://" + cls.path
        r = storebench("oltp", "load", "--workload", "tpcc", "--db", cls.url, "--warehouses",
                       "1", timeout=600)
        assert r.returncode == 0, r.stderr
        cls.load_stderr = r.stderr
        # The keying-and-thinking run mostly waits out its 5 s (terminals on timers, little
        # CPU): started now on a copy of its own, it runs beside the other cases.
        keying = os.path.join(cls.dir, "keying.db")
        shutil.copyfile(cls.path, keying)
        cls.keying_run = harness.storebench_started(
            *cls.run_args("sqlite://" + keying, "sqlite-keying", KEYING_ARGS), timeout=300)

    shared = None

    def deferred_run(self):
        """The defaults' run, Delivery deferred (the default, named): shared by the cases that
        read different parts of it (a run each took ~2 s)."""
        if type(self).shared is None:
            type(self).shared = self.run_and_check("sqlite", ("--delivery", "deferred"))
        return type(self).shared

    def test_load_shows_progress_and_run_reports_nopm(self):
        self.assertIn("TPC-C-like", self.load_stderr)
        self.assertIn("rows", self.load_stderr)
        doc, r = self.deferred_run()
        self.assertIn("SQLite TPM (client count", r.stdout)
        self.assertEqual(doc["choices"]["mix"], "deck")
        figures = doc["figures"]
        n = sum(figures["n_" + t] for t in
                ("new_order", "payment", "order_status", "delivery", "stock_level"))
        self.assertEqual(n, figures["transactions"])

    def test_hammerdb_mix_is_recorded(self):
        # The choice is recorded whatever the length: half a second, no warm-up (the shared
        # run above keeps the warm-up's reading for the NOPM comparison).
        doc, _ = self.run_and_check("sqlite-hammerdb", ("--mix", "hammerdb", "--run_time",
                                                        "500ms", "--warmup_time", "0s"))
        self.assertEqual(doc["choices"]["mix"], "hammerdb")

    def test_run_with_another_warehouse_count_is_refused(self):
        r = storebench("oltp", "run", "--workload", "tpcc", "--db", self.url, "--warehouses", "3",
                       "--run_time", "2s")
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("loaded with 1 warehouses but the run asks for --warehouses=3", r.stderr)
        self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)

    def test_zero_warehouses_is_refused(self):
        d = fresh_dir("it-tpcc-zero")
        r = storebench("oltp", "load", "--workload", "tpcc", "--db",
                       "sqlite://" + os.path.join(d, "z.db"), "--warehouses", "0")
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("warehouses", r.stderr)
        self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)

    def test_load_over_a_loaded_database_needs_force(self):
        r = storebench("oltp", "load", "--workload", "tpcc", "--db", self.url, "--warehouses", "1")
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("already holds a TPC-C-like database (warehouses=1)", r.stderr)

    def test_verify_fails_on_tampered_databases(self):
        """Each consistency condition (1-12) fails on a copy of the database broken for it, and
        only the conditions that follow from it fail with it (the copy has been run on: the
        tampering must not depend on the loaded state)."""
        # Conditions the tampering breaks besides its own, because they imply each other: D_YTD
        # is in conditions 1 and 9; a NEW-ORDER gap leaves an undelivered order without its row
        # (5) and one NEW-ORDER row short (11); a lost line shows per district (4) and per order
        # (6).
        also = {
            "consistency_1_warehouse_ytd": {"consistency_9_district_ytd_history"},
            "consistency_3_new_order_range": {"consistency_5_carrier_new_order",
                                              "consistency_11_delivered_orders"},
            "consistency_4_order_line_count": {"consistency_6_order_line_count_per_order"},
        }
        tampering = {
            "consistency_1_warehouse_ytd": "UPDATE district SET d_ytd = d_ytd + 1 WHERE d_id = 3",
            "consistency_2_next_order_id": "UPDATE district SET d_next_o_id = d_next_o_id + 1 "
                                           "WHERE d_id = 4",
            "consistency_3_new_order_range": "DELETE FROM new_order WHERE no_d_id = 5 AND "
                                             "no_o_id = (SELECT min(no_o_id) + 1 FROM new_order "
                                             "WHERE no_d_id = 5)",
            "consistency_4_order_line_count": "DELETE FROM order_line WHERE ol_d_id = 6 AND "
                                              "ol_o_id = 10 AND ol_number = 1",
            # The oldest undelivered order loses its NEW-ORDER row (the range stays gapless).
            "consistency_5_carrier_new_order": "DELETE FROM new_order WHERE no_d_id = 7 AND "
                                               "no_o_id = (SELECT min(no_o_id) FROM new_order "
                                               "WHERE no_d_id = 7)",
            # One line moves from order 11's count to order 10's: the district's sum holds.
            "consistency_6_order_line_count_per_order": "UPDATE orders SET o_ol_cnt = o_ol_cnt + "
                                                        "(CASE o_id WHEN 10 THEN 1 ELSE -1 END) "
                                                        "WHERE o_d_id = 8 AND o_id IN (10, 11)",
            # A line of an order delivered at load (amount 0) loses its delivery date.
            "consistency_7_delivery_date_carrier": "UPDATE order_line SET ol_delivery_d = NULL "
                                                   "WHERE ol_d_id = 9 AND ol_o_id = 10 AND "
                                                   "ol_number = 1",
            # A payment recorded for the warehouse but for no district or customer.
            "consistency_8_warehouse_ytd_history": "INSERT INTO history (h_c_id, h_c_d_id, "
                                                   "h_c_w_id, h_d_id, h_w_id, h_date, h_amount, "
                                                   "h_data) VALUES (0, 11, 1, 11, 1, "
                                                   "'2020-01-01 00:00:00', 5, 'tampered')",
            # A dollar moves from district 4's D_YTD to district 3's: W_YTD's sum holds.
            "consistency_9_district_ytd_history": "UPDATE district SET d_ytd = d_ytd + (CASE d_id "
                                                  "WHEN 3 THEN 1 ELSE -1 END) WHERE d_id IN (3, 4)",
            # A dollar moves from C_YTD_PAYMENT to C_BALANCE: their sum (condition 12) holds.
            "consistency_10_customer_balance": "UPDATE customer SET c_balance = c_balance + 1, "
                                               "c_ytd_payment = c_ytd_payment - 1 WHERE "
                                               "c_d_id = 2 AND c_id = 5",
            # A delivered order with no lines below the loaded ids.
            "consistency_11_delivered_orders": "INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, "
                                               "o_entry_d, o_carrier_id, o_ol_cnt, o_all_local) "
                                               "VALUES (0, 6, 1, 1, '2020-01-01 00:00:00', 1, 0, "
                                               "1)",
            "consistency_12_customer_balance_ytd": "UPDATE customer SET c_ytd_payment = "
                                                   "c_ytd_payment + 1 WHERE c_d_id = 2 AND "
                                                   "c_id = 5",
        }
        # One copy, each tampering undone after its verify (a copy per tampering wrote 1.2 GB):
        # the undo log's triggers are this connection's (TEMP), so verify does not see them.
        copy = os.path.join(self.dir, "tampered.db")
        shutil.copyfile(self.path, copy)
        con = sqlite3.connect(copy, isolation_level=None)
        self.addCleanup(con.close)
        undo = UndoLog(con)
        for check, sql in tampering.items():
            with self.subTest(check=check):
                undo.run(sql)
                r = storebench("oltp", "verify", "--workload", "tpcc", "--db", "sqlite://" + copy)
                undo.undo()
                self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
                # "verify <check> FAIL <detail>": exactly the broken conditions fail (a
                # tampering left behind would fail its conditions in the next verify too).
                lines = (r.stdout + r.stderr).splitlines()
                failed = {line.split()[1] for line in lines if " FAIL " in line}
                self.assertEqual(failed, {check} | also.get(check, set()), r.stdout + r.stderr)

    def test_deferred_delivery_is_queued_and_run_by_the_delivery_thread(self):
        doc, r = self.deferred_run()
        self.assertTrue(doc["choices"]["delivery"].startswith("deferred"), doc["choices"])
        figures = doc["figures"]
        self.assertGreater(figures["n_delivery"], 0)
        # The delivery thread ran queued requests and delivered orders; its step has its own
        # latency row.
        self.assertGreater(figures["n_delivery_deferred"], 0)
        self.assertGreater(doc["counters"]["delivered_orders"], 0)
        self.assertIn("delivery_deferred", json.dumps(doc["operations"]))
        # It is not a worker of the run: 4 workers' shares, and every unit is a terminal's.
        self.assertEqual(len(doc["workers"]["units"]), 4)
        self.assertEqual(sum(figures["n_" + t] for t in ("new_order", "payment", "order_status",
                                                         "delivery", "stock_level")),
                         figures["transactions"])

    def test_deferred_delivery_log_records_every_execution(self):
        """--delivery_log on a copy whose districts 3 and 7 have no new order left (delivered
        before the run) and a mix without New-Orders: every deferred Delivery skips those two,
        the file says so, and the result flags the skips as over the 1 % limit."""
        d = fresh_dir("it-tpcc-dlog")
        copy = os.path.join(d, "t.db")
        shutil.copyfile(self.path, copy)
        con = sqlite3.connect(copy)
        con.execute("UPDATE orders SET o_carrier_id = 1 WHERE o_d_id IN (3, 7) AND o_id IN "
                    "(SELECT no_o_id FROM new_order WHERE no_d_id = o_d_id)")
        con.execute("DELETE FROM new_order WHERE no_d_id IN (3, 7)")
        con.commit()
        delivered_sql = ("SELECT o_w_id, o_d_id, o_id, o_carrier_id FROM orders WHERE "
                         "o_carrier_id IS NOT NULL AND o_id > 2100")
        # Other cases have run on the database this one copied: their deliveries are not ours.
        before = {(w, dd, o) for w, dd, o, _ in con.execute(delivered_sql)}
        con.close()
        log, out = os.path.join(d, "deliveries.txt"), os.path.join(d, "r.json")
        r = storebench("oltp", "run", "--workload", "tpcc", "--db", "sqlite://" + copy,
                       "--n_threads", "2", "--run_time", "1s", "--warmup_time", "0s",
                       "--weights", "0,60,0,40,0", "--delivery", "deferred", "--delivery_log",
                       log, "--json", out, timeout=300)
        self.assertEqual(r.returncode, 0, r.stderr[-3000:] + r.stdout[-3000:])
        with open(out) as f:
            doc = json.load(f)
        jsonschema.validate(doc, load_schema())
        self.assertIn(log, doc["choices"]["delivery_log"])
        con = sqlite3.connect(copy)
        carriers = {(w, dd, o): c for w, dd, o, c in con.execute(delivered_sql)
                    if (w, dd, o) not in before}
        con.close()
        lines = check_delivery_log(self, log, doc, carriers)
        for _, _, orders in lines:
            self.assertIsNone(orders[3])
            self.assertIsNone(orders[7])
        figures = doc["figures"]
        self.assertEqual(figures["deliveries_with_skips"], figures["n_delivery_deferred"])
        self.assertGreaterEqual(figures["delivery_skipped_districts"],
                                2 * figures["n_delivery_deferred"])
        self.assertEqual(figures["delivery_skips_within_limit"], 0)
        self.assertEqual(figures["delivery_skip_pct"], 100)
        self.assertIn("OVER the specification's 1 % limit", r.stdout)

    def test_delivery_log_bad_input_is_refused_before_the_run(self):
        for args, words in (
                (("--delivery", "deferred", "--delivery_log",
                  os.path.join(tmp_path("it-tpcc-no-such-dir"), "x", "log.txt")),
                 "cannot write the delivery log"),
                (("--delivery", "inline", "--delivery_log", tmp_path("it-tpcc-inline-log.txt")),
                 "--delivery_log needs --delivery=deferred")):
            r = storebench("oltp", "run", "--workload", "tpcc", "--db", self.url, "--run_time",
                           "2s", *args)
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertIn(words, r.stderr)
            self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
            self.assertEqual(r.stdout, "", r.stdout)  # refused before the run started

    def test_keying_and_thinking_checks_the_response_time_constraints(self):
        doc, r = self.run_and_check("sqlite-keying", started=self.keying_run)
        self.assertIn("300 terminals on timers", doc["loop_model"])
        self.assertIn(doc["figures"]["response_time_constraints_met"], (0, 1))
        self.assertIn("response-time constraints (90th percentile", r.stdout)
        self.assertIn("efficiency:", r.stdout)

    def test_fewer_terminals_than_connections_is_refused(self):
        r = storebench("oltp", "run", "--workload", "tpcc", "--db", self.url,
                       "--keying_and_thinking", "--terminals", "2", "--connections", "4",
                       "--run_time", "2s")
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("at least as many terminals (2) as connections", r.stderr)
        self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)

    def test_procedures_on_sqlite_are_refused(self):
        r = storebench("oltp", "run", "--workload", "tpcc", "--db", self.url, "--sql_mode",
                       "procedures", "--run_time", "2s")
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("--sql_mode=procedures is available on PostgreSQL and MariaDB/MySQL only",
                      r.stderr)

    def test_keying_with_a_rate_is_refused(self):
        r = storebench("oltp", "run", "--workload", "tpcc", "--db", self.url,
                       "--keying_and_thinking", "--rate", "10", "--run_time", "2s")
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("paces the terminals itself", r.stderr)

    def test_plan_file_runs_tpcc_instances(self):
        d = fresh_dir("it-tpcc-plan")
        for i in (1, 2):
            shutil.copyfile(self.path, os.path.join(d, f"w{i}.db"))
        plan = os.path.join(d, "plan.toml")
        with open(plan, "w") as f:
            f.write(f"""
[run]
warmup_time = "0s"
run_time = "1s"

[[group]]
name = "tpcc"
workload = "tpcc"
count = 2
db = "sqlite://{d}/w{{i}}.db"
[group.options]
n_threads = 2
mix = "hammerdb"
""")
        out = os.path.join(d, "plan.json")
        r = storebench("run", "--plan", plan, "--json", out, timeout=300)
        self.assertEqual(r.returncode, 0, r.stderr[-3000:])
        with open(out) as f:
            doc = json.load(f)
        self.assertEqual(len(doc["instances"]), 2)
        for inst in doc["instances"]:
            self.assertEqual(inst["workload"], "tpcc")
            self.assertGreater(inst["figures"]["transactions"], 0)
            comparisons = {c["name"]: c for c in inst["server_check"]["comparisons"]}
            self.assertTrue(comparisons[NOPM_CHECK]["passed"], comparisons)
        self.assertEqual(r.stdout.count("TEST RESULT : System achieved"), 2, r.stdout)


class TpccNullTest(unittest.TestCase):
    """The null back end measures the driver: terminals run one call per transaction against
    statements that return nothing; nothing is loaded, compared or verified."""

    def test_keying_and_thinking_terminals_run_on_the_null_back_end(self):
        out = tmp_path("it-tpcc-null.json")
        r = storebench("oltp", "run", "--workload", "tpcc", "--db", "null://", "--warehouses",
                       "30", "--keying_and_thinking", "--connections", "2", "--run_time", "4s",
                       "--warmup_time", "0s", "--json", out, timeout=120)
        self.assertEqual(r.returncode, 0, r.stderr[-3000:] + r.stdout[-3000:])
        with open(out) as f:
            doc = json.load(f)
        jsonschema.validate(doc, load_schema())
        self.assertIn("300 terminals on timers", doc["loop_model"])
        self.assertIn("measures the driver", doc["choices"]["null_back_end"])
        self.assertTrue(doc["choices"]["sql_mode"].startswith("procedures"))
        figures = doc["figures"]
        self.assertGreater(figures["transactions"], 0)
        self.assertEqual(sum(figures["n_" + t] for t in ("new_order", "payment", "order_status",
                                                         "delivery", "stock_level")),
                         figures["transactions"])
        self.assertEqual(doc["verify"], [])
        self.assertNotIn("nopm_dnext", figures)  # no sum(D_NEXT_O_ID) to read
        self.assertNotIn("TEST RESULT", r.stdout)

    def test_client_sql_on_the_null_back_end_is_refused(self):
        r = storebench("oltp", "run", "--workload", "tpcc", "--db", "null://", "--sql_mode",
                       "client", "--run_time", "2s")
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("keeps no rows for --sql_mode=client to read", r.stderr)
        self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)


class TpccPostgresTest(TpccRunMixin, unittest.TestCase):
    url = harness.server_url("STOREBENCH_PG_URL", "sbtest_tpcc")

    def delivered_carriers(self):
        """(w, d, o_id) -> O_CARRIER_ID of every order delivered since the load, through psql
        (the password in the environment, never on the command line)."""
        u = urllib.parse.urlsplit(self.url)
        env = dict(os.environ, PGPASSWORD=urllib.parse.unquote(u.password or ""))
        q = subprocess.run(["psql", "-X", "-A", "-t", "-F", " ", "-v", "ON_ERROR_STOP=1",
                            "-h", u.hostname, "-p", str(u.port or 5432), "-U",
                            urllib.parse.unquote(u.username or ""), "-d", u.path.lstrip("/"),
                            "-c", "SELECT o_w_id, o_d_id, o_id, o_carrier_id FROM orders "
                            "WHERE o_carrier_id IS NOT NULL AND o_id > 2100"],
                           capture_output=True, text=True, timeout=60, env=env)
        self.assertEqual(q.returncode, 0, q.stderr)
        rows = (map(int, line.split()) for line in q.stdout.splitlines() if line.strip())
        return {(w, d, o): c for w, d, o, c in rows}

    def test_load_run_verify(self):
        harness.require_server(self, self.url)
        self.load()
        # The defaults' run (Delivery deferred by default, named) with the deferred Deliveries'
        # result file, checked against ORDERS on the server: the orders delivered during this
        # run are the ones the file names. (One run for both: a run took ~2.5 s.)
        before = self.delivered_carriers()
        log = tmp_path("it-tpcc-postgres-deliveries.txt")
        doc, r = self.run_and_check("postgres", ("--delivery", "deferred", "--delivery_log", log))
        self.assertIn("PostgreSQL TPM", r.stdout)
        self.assertIn("tpm_server", doc["figures"])
        carriers = {k: c for k, c in self.delivered_carriers().items() if k not in before}
        check_delivery_log(self, log, doc, carriers)
        # The same database in procedures mode: NOPM still equals the committed New-Orders
        # (half a second without warm-up: the run above had the warm-up's reading).
        doc, r = self.run_and_check("postgres-procedures", ("--sql_mode", "procedures",
                                                        "--run_time", "500ms",
                                                        "--warmup_time", "0s"))
        self.assertTrue(doc["choices"]["sql_mode"].startswith("procedures"))


    def test_hammerdb_profile_procedures(self):
        harness.require_server(self, self.url)
        doc, _ = self.hammerdb_procedures_run("postgres-hammerdb")
        # HammerDB's PostgreSQL NEWORD commits the New-Order that meets the unused item.
        self.assertEqual(doc["figures"]["new_order_rollback_pct"], 0)
        self.assertIn("the order commits", doc["choices"]["unused_item"])
        self.assertIn("every database of the server", doc["choices"]["tpm"])
        self.assertIn("tpm_server", doc["figures"])
        # One round trip per transaction, as HammerDB's: the function is called in autocommit,
        # with no BEGIN or COMMIT (pg_stat_statements counts this database's statements; each
        # connection's statement preparation sends one BEGIN).
        delta = {c["name"]: c["delta"] for c in doc["server_check"]["server_counters"]}
        if ("pg_stat_statements.begin" in delta and
                delta.get("pg_stat_statements_info.dealloc", 0) == 0):
            self.assertGreater(doc["figures"]["transactions"], 2000)
            self.assertLess(delta["pg_stat_statements.begin"], 20, delta)
            # A kind the database never ran has no entry: on a fresh server no COMMIT at all.
            self.assertLess(delta.get("pg_stat_statements.commit", 0), 20, delta)
        u = urllib.parse.urlsplit(self.url)
        env = dict(os.environ, PGPASSWORD=urllib.parse.unquote(u.password or ""))
        q = subprocess.run(["psql", "-X", "-A", "-t", "-h", u.hostname, "-p",
                            str(u.port or 5432), "-U", urllib.parse.unquote(u.username or ""),
                            "-d", u.path.lstrip("/"), "-c",
                            "SELECT count(*) FROM order_line WHERE ol_i_id = 100001"],
                           capture_output=True, text=True, timeout=60, env=env)
        self.assertEqual(q.returncode, 0, q.stderr)
        self.assertGreater(int(q.stdout.strip()), 0)
        # Client SQL with the profile makes the same choice: the unused-item order commits.
        # New-Orders only, 1,300 of them (as the mix's 3,000 units gave, without the other
        # 1,700 transactions, which add no order line); no warm-up: all are measured however
        # fast the server.
        doc, _ = self.run_and_check("postgres-hammerdb-client", (
            "--profile", "hammerdb", "--weights", "100,0,0,0,0", "--units_total", "1300",
            "--run_time", "120s", "--warmup_time", "0"))
        self.assertEqual(doc["figures"]["new_order_rollback_pct"], 0)
        self.assertGreater(doc["figures"]["n_new_order"], 1000)


class TpccMariaDbTest(TpccRunMixin, unittest.TestCase):
    url = harness.server_url("STOREBENCH_MYSQL_URL", "sbtest_tpcc")

    def test_load_run_verify(self):
        harness.require_server(self, self.url)
        self.load()
        doc, r = self.run_and_check("mariadb")
        # MariaDB counts transactions server-wide: HammerDB's TPM is given when no other session
        # worked meanwhile; with other clients on the server (tests beside this one) the
        # comparison says so instead of counting their work as this run's.
        others = [c for c in doc["server_check"]["comparisons"] if c["relation"] == "not compared"]
        if others:
            self.assertNotIn("tpm_server", doc["figures"])
            self.assertIn("other sessions were active", others[0]["detail"])
        else:
            self.assertIn("tpm_server", doc["figures"])
        # The same database in procedures mode: NOPM still equals the committed New-Orders
        # (half a second without warm-up: the run above had the warm-up's reading).
        doc, r = self.run_and_check("mariadb-procedures", ("--sql_mode", "procedures",
                                                        "--run_time", "500ms",
                                                        "--warmup_time", "0s"))
        self.assertTrue(doc["choices"]["sql_mode"].startswith("procedures"))

    def test_hammerdb_profile_procedures(self):
        harness.require_server(self, self.url)
        doc, _ = self.hammerdb_procedures_run("mariadb-hammerdb")
        # HammerDB's MariaDB NEWORD rolls the unused-item New-Order back.
        self.assertGreater(doc["figures"]["new_order_rollback_pct"], 0)
        self.assertIn("roll back", doc["choices"]["unused_item"])
        # One round trip per transaction, as HammerDB's: the _txn procedures begin and commit
        # inside, and the client sends no START TRANSACTION or COMMIT. Questions counts the
        # statements clients sent (not those inside procedures), server-wide: compared only
        # when no other session worked meanwhile.
        sc = doc["server_check"]
        if not [c for c in sc["comparisons"] if c["relation"] == "not compared"]:
            delta = {c["name"]: c["delta"] for c in sc["server_counters"]}
            self.assertLess(delta["Questions"], sc["client_units"] + 20, delta)
        # A database loaded before the _txn procedures (its load record without them) is
        # refused with the profile's procedures rather than run without its transactions.
        u = urllib.parse.urlsplit(self.url)
        env = dict(os.environ, MYSQL_PWD=urllib.parse.unquote(u.password or ""))
        q = subprocess.run(["mariadb", "--no-defaults", "-h", u.hostname, "-P",
                            str(u.port or 3306), "-u", urllib.parse.unquote(u.username or ""),
                            u.path.lstrip("/"), "-e",
                            "DELETE FROM storebench_meta WHERE `key` = 'procedures_commit_inside'"],
                           capture_output=True, text=True, timeout=60, env=env)
        self.assertEqual(q.returncode, 0, q.stderr)
        r = storebench("oltp", "run", "--workload", "tpcc", "--db", self.url, "--profile",
                       "hammerdb", "--sql_mode", "procedures", "--run_time", "2s")
        self.assertNotEqual(r.returncode, 0, r.stdout[-2000:])
        self.assertIn("predate those --profile=hammerdb calls", r.stderr)
        # 100 transactions are enough to show the procedures run; the run ends with them.
        r = storebench("oltp", "run", "--workload", "tpcc", "--db", self.url, "--sql_mode",
                       "procedures", "--units_total", "100", "--run_time", "60s",
                       "--warmup_time", "0s")
        self.assertEqual(r.returncode, 0, r.stderr[-2000:])


if __name__ == "__main__":
    harness.main()
