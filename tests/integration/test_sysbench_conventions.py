"""sysbench users' commands and scripts with --workload oltp (SQLite): sysbench's option names
and on/off values, its verbs (also written last), its interval line and final report read by a
parser written from sysbench 1.0's format strings (src/db_driver.c, src/sysbench.c), passwords
refused, and --db-driver with --pgsql-*/--mysql-* naming the database."""
import json
import os
import re
import sqlite3
import unittest

import harness
from harness import storebench, tmp_path

# sysbench 1.0's interval line: log_timestamp's "[ %.0fs ] " and db_report_intermediate's
# "thds: %u tps: %4.2f qps: %4.2f (r/w/o: %4.2f/%4.2f/%4.2f) lat (ms,%u%%): %4.2f err/s: %4.2f
# reconn/s: %4.2f".
NUM = r"(\d+\.\d\d)"
INTERVAL = re.compile(r"^\[ (\d+)s \] thds: (\d+) tps: " + NUM + " qps: " + NUM +
                      r" \(r/w/o: " + NUM + "/" + NUM + "/" + NUM + r"\) lat \(ms,(\d+)%\): " +
                      NUM + " err/s: " + NUM + " reconn/s: " + NUM + "$")


def parse_report(text):
    """The final report's figures, as a sysbench output parser reads them."""
    def one(pattern):
        m = re.search(pattern, text, re.M)
        assert m, f"no match for {pattern!r} in:\n{text}"
        return m.groups()
    f = {}
    for kind in ("read", "write", "other", "total"):
        f[kind] = int(one(r"^        " + kind + r":\s+(\d+)$")[0])
    for kind in ("transactions", "queries", "ignored errors", "reconnects"):
        n, rate = one(r"^    " + kind + r":\s+(\d+)\s+\((\d+\.\d\d) per sec\.\)$")
        f[kind] = int(n)
        f[kind + "/s"] = float(rate)
    f["total time"] = float(one(r"^    total time:\s+(\d+\.\d{4})s$")[0])
    f["events"] = int(one(r"^    total number of events:\s+(\d+)$")[0])
    for kind in ("min", "avg", "max", "sum"):
        f["lat_" + kind] = float(one(r"^         " + kind + r":\s+(\d+\.\d\d)$")[0])
    pct, value = one(r"^        ([ \d]{3})th percentile:\s+(\d+\.\d\d)$")
    f["pct"], f["lat_pct"] = int(pct), float(value)
    f["events_avg"], f["events_sd"] = map(float, one(
        r"^    events \(avg/stddev\):\s+(\d+\.\d{4})/(\d+\.\d\d)$"))
    f["time_avg"], f["time_sd"] = map(float, one(
        r"^    execution time \(avg/stddev\):\s+(\d+\.\d{4})/(\d+\.\d\d)$"))
    # The section headings, in sysbench's order.
    order = [text.find(h) for h in ("SQL statistics:", "General statistics:", "Latency (ms):",
                                    "Threads fairness:")]
    assert -1 not in order and order == sorted(order), text
    return f


class SysbenchConventionsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.db = tmp_path("it-sysbench.db")
        for suffix in ("", "-wal", "-shm", ".storebench-lock"):
            if os.path.exists(cls.db + suffix):
                os.remove(cls.db + suffix)
        cls.common = ["--workload=oltp", "--db", "sqlite://" + cls.db, "--tables=2",
                      "--table-size=2000"]
        # sysbench's order: options, then the verb.
        r = storebench("oltp", *cls.common, "prepare")
        assert r.returncode == 0, r.stderr

    def test_interval_lines_and_final_report_read_by_a_sysbench_parser(self):
        out = tmp_path("it-sysbench.json")
        r = storebench("oltp", *self.common, "--threads=2", "--time=3", "--report-interval=1",
                       "--percentile=99", "--histogram=on", "--rand-seed=7", "--skip_trx=off",
                       "--range_selects=on", "--json", out, "run")
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = [l for l in r.stdout.splitlines() if l.startswith("[ ")]
        parsed = [INTERVAL.match(l) for l in lines]
        self.assertTrue(all(parsed), lines)
        # A bare --time is seconds: 3 lines, at 1, 2 and 3 s, 2 threads, the 99th percentile.
        self.assertEqual([int(m.group(1)) for m in parsed], [1, 2, 3])
        self.assertTrue(all(m.group(2) == "2" and m.group(8) == "99" for m in parsed))
        # No DVD Store status lines anywhere.
        self.assertIsNone(re.search(r"^(.* )?et= ", r.stdout + r.stderr, re.M))
        self.assertIn("Latency histogram (values are in milliseconds)", r.stdout)
        f = parse_report(r.stdout)
        tx = f["transactions"]
        self.assertGreater(tx, 0)
        # read_write: 14 reads, 4 writes, 2 other statements per transaction, as sysbench counts
        # (and a retried attempt's completed statements besides, as sysbench counts them).
        if f["ignored errors"] == 0:
            self.assertEqual((f["read"], f["write"], f["other"]), (14 * tx, 4 * tx, 2 * tx))
        else:
            self.assertGreaterEqual(f["read"], 14 * tx)
        self.assertEqual(f["total"], f["read"] + f["write"] + f["other"])
        self.assertEqual(f["queries"], f["total"])
        self.assertEqual(f["events"], tx)
        self.assertEqual(f["pct"], 99)
        self.assertAlmostEqual(f["total time"], 3.0, places=3)  # exactly the requested window
        self.assertLessEqual(f["lat_min"], f["lat_avg"])
        self.assertLessEqual(f["lat_avg"], f["lat_max"])
        self.assertAlmostEqual(f["events_avg"] * 2, tx, delta=0.001)
        self.assertAlmostEqual(f["time_avg"] * 2 * 1000, f["lat_sum"], delta=1.0)
        # The interval lines cover the run: their transactions add up to the report's.
        interval_tx = sum(float(m.group(3)) for m in parsed)
        self.assertAlmostEqual(interval_tx, tx, delta=0.01 * tx + 3)
        with open(out) as fh:
            doc = json.load(fh)
        self.assertEqual(doc["operations"][0]["count"], tx)
        self.assertEqual(sum(doc["workers"]["units"]), tx)
        self.assertEqual(doc["config"]["seed"], 7)
        self.assertEqual(doc["config"]["run_time"], 3)

    def test_a_sysbench_command_line_runs_with_sysbenchs_header(self):
        # A sysbench 1.0.20 command line with storebench in front: the test name as a word,
        # sysbench's options, the verb last.
        r = storebench("oltp", "oltp_read_write", "--db", "sqlite://" + self.db, "--tables=2",
                       "--table-size=2000", "--threads=2", "--time=2", "--report-interval=1",
                       "--db-ps-mode=disable", "--mysql-ignore-errors=1213,1205",
                       "--forced-shutdown=1", "--verbosity=3", "--auto_inc=on",
                       "--warmup-time=1", "--json", tmp_path("it-sysbench-cmdline.json"), "run")
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = r.stdout.splitlines()
        # sysbench.c's print_header and print_run_mode, sb_thread.c's "Initializing worker
        # threads...", then "Threads started!" and a blank line.
        self.assertRegex(lines[0], r"^sysbench 1\.0\.20 \(using storebench \S+\)$")
        # No --rand-seed: storebench draws one for the run (sysbench would seed from the clock)
        # and names it, so the run can be repeated with --rand-seed.
        self.assertRegex(lines[5], r"^Initializing random number generator from seed \((\d+)\)\.$")
        with open(tmp_path("it-sysbench-cmdline.json")) as fh:
            seed = json.load(fh)["config"]["seed"]
        self.assertEqual(lines[1:13], [
            "", "Running the test with following options:", "Number of threads: 2",
            "Report intermediate results every 1 second(s)",
            f"Initializing random number generator from seed ({seed}).", "",
            "Forcing shutdown in 3 seconds", "", "Initializing worker threads...", "",
            "Threads started!", ""])
        # The last interval line is followed by "SQL statistics:" at once, as in sysbench.
        at = lines.index("SQL statistics:")
        self.assertTrue(INTERVAL.match(lines[at - 1]), lines[at - 1])
        self.assertIn("note: --db-ps-mode=disable", r.stderr)
        f = parse_report(r.stdout)
        self.assertGreaterEqual(f["read"], 14 * f["transactions"])  # retried attempts' too

    def test_verbosity_below_3_prints_nothing_of_sysbenchs(self):
        r = storebench("oltp", "run", *self.common, "--time=1", "--report-interval=1",
                       "--verbosity=2", "--json", tmp_path("it-sysbench-quiet.json"))
        self.assertEqual(r.returncode, 0, r.stderr)
        for text in ("sysbench 1.0.20", "Threads started!", "[ 1s ]", "SQL statistics:"):
            self.assertNotIn(text, r.stdout)

    def test_prepare_names_the_index_as_sysbench(self):
        with sqlite3.connect(self.db) as c:
            names = c.execute("SELECT name FROM sqlite_master WHERE type='index' AND "
                              "name LIKE 'k%' ORDER BY name").fetchall()
        self.assertEqual(names, [("k_1",), ("k_2",)])

    def test_run_on_tables_sysbench_prepared(self):
        # The tables sysbench 1.0.20's prepare makes (oltp_common.lua's create_table: its
        # PostgreSQL DDL with SERIAL as SQLite's INTEGER key, rows as its bulk insert writes
        # them, the index k_1), without storebench's own table.
        db = tmp_path("it-sysbench-theirs.db")
        for suffix in ("", "-wal", "-shm", ".storebench-lock"):
            if os.path.exists(db + suffix):
                os.remove(db + suffix)
        with sqlite3.connect(db) as c:
            c.execute("CREATE TABLE sbtest1(id INTEGER NOT NULL, k INTEGER DEFAULT '0' NOT NULL, "
                      "c CHAR(120) DEFAULT '' NOT NULL, pad CHAR(60) DEFAULT '' NOT NULL, "
                      "PRIMARY KEY (id))")
            c.executemany("INSERT INTO sbtest1(id, k, c, pad) VALUES (?, ?, ?, ?)",
                          [(i, (i * 7919) % 500 + 1, "-".join(["%011d" % i] * 10),
                            "-".join(["%011d" % i] * 5)) for i in range(1, 501)])
            c.execute("CREATE INDEX k_1 ON sbtest1(k)")
        r = storebench("oltp", "oltp_read_write", "--db", "sqlite://" + db, "--tables=1",
                       "--table-size=500", "--time=1", "--json",
                       tmp_path("it-sysbench-theirs.json"), "run")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertGreater(parse_report(r.stdout)["transactions"], 0)
        # Tables that are not there are still refused.
        r = storebench("oltp", "oltp_read_write", "--db", "sqlite://" + db, "--tables=2",
                       "--table-size=500", "--time=1", "run")
        self.assertNotEqual(r.returncode, 0)

    def test_events_stops_after_that_many_transactions(self):
        r = storebench("oltp", "run", *self.common, "--threads=3", "--events=500", "--time=0",
                       "--json", tmp_path("it-sysbench-events.json"))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(parse_report(r.stdout)["transactions"], 500)

    def test_passwords_are_refused_and_never_echoed(self):
        for opt, env in (("--pgsql-password", "PGPASSWORD"), ("--mysql-password", "MYSQL_PWD")):
            r = storebench("oltp", "run", "--workload=oltp", opt + "=Tiger123", "--db-driver=pgsql")
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertIn(env, r.stderr)
            self.assertNotIn("Tiger123", r.stdout + r.stderr)

    def test_db_driver_and_pgsql_options_name_the_database(self):
        r = storebench("oltp", "run", "--workload=oltp", "--db-driver=pgsql",
                       "--pgsql-host=127.0.0.1", "--pgsql-port=1", "--pgsql-user=sb",
                       "--pgsql-db=sbx", "--time=1s")
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("postgresql://sb@127.0.0.1:1/sbx", r.stderr)
        r = storebench("oltp", "run", "--workload=oltp", "--db", "sqlite://" + self.db,
                       "--mysql-host=127.0.0.1")
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("give one of them", r.stderr)

    def test_warmup_time_counts_seconds(self):
        out = tmp_path("it-sysbench-warmup.json")
        r = storebench("oltp", "run", *self.common, "--warmup-time=1", "--time=2", "--json", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(out) as fh:
            doc = json.load(fh)
        self.assertEqual(doc["config"]["warmup_time"], 1)

    def test_cleanup_drops_the_tables(self):
        db = tmp_path("it-sysbench-cleanup.db")
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(db + suffix):
                os.remove(db + suffix)
        common = ["--workload=oltp", "--db", "sqlite://" + db, "--tables=3", "--table-size=100"]
        self.assertEqual(storebench("oltp", "prepare", *common).returncode, 0)
        r = storebench("oltp", *common, "cleanup")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual([l for l in r.stdout.splitlines() if l.startswith("Dropping")],
                         [f"Dropping table 'sbtest{i}'..." for i in (1, 2, 3)])
        # Empty again: a run is refused, a new prepare works.
        self.assertEqual(storebench("oltp", "run", *common, "--time=1s").returncode, 2)
        self.assertEqual(storebench("oltp", "prepare", *common).returncode, 0)


if __name__ == "__main__":
    harness.main()
