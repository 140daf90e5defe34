"""End-to-end DVD Store on SQLite: load 1MB, run, parse the console lines, validate the JSON
result against docs/output-schema.json, verify; the SIGINT path; bad input."""
import concurrent.futures
import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import time
import unittest
import zlib

import jsonschema

import harness
from harness import storebench, tmp_path

STATUS_RE = re.compile(
    r"^et= *(?P<et>\d+\.\d) n_overall=(?P<n>\d+) opm=(?P<opm>\d+) "
    r"rt_tot_lastn_max_msec=(?P<max>\d+) rt_tot_avg_msec=(?P<avg>\d+) "
    r"rt_tot_sampled=(?P<sampled>\d+) rollbacks: n=(?P<rb>\d+) %= *(?P<pct>\d+\.\d) $")
FINAL_DS3_NAMES = [
    "et", "n_overall", "opm", "rt_tot_lastn_max", "rt_tot_avg", "n_login_overall",
    "n_newcust_overall", "n_newmember_overall", "n_browse_overall", "n_reviewbrowse",
    "n_newreviews", "n_newhelpfulness", "n_purchase_overall", "rt_login_avg_msec",
    "rt_newcust_avg_msec", "rt_rewmember_avg_msec", "rt_browse_avg_msec",
    "rt_reviewbrowse_avg_msec", "rt_newreview_avg_msec", "rt_newhelpfulness",
    "rt_purchase_avg_msec", "rt_tot_sampled", "n_rollbacks_overall"]


def parse_final(line):
    """Parses a DS3 Final line into (names in order, values); asserts its overall shape."""
    m = re.match(r"^Final \(([^)]*)\): (.*)$", line)
    assert m, line
    body = m.group(2)
    rate = re.search(r" rollback_rate = +(\d+\.\d)%$", body)
    assert rate, body
    body = body[:rate.start()]
    names, values = [], {}
    for tok in re.findall(r"(\w+)= *(-?[\d.]+)", body):
        names.append(tok[0])
        values[tok[0]] = float(tok[1])
    values["rollback_rate"] = float(rate.group(1))
    return names, values


def table_digests(path):
    """Per table (lower-case name; not storebench_meta, not the full-text index's own tables):
    the row count and a CRC-32 of the rows in key order (the integer primary key where the table
    has one, else all columns), as Python's sqlite3 reads them, 50 000 rows at a time."""
    con = sqlite3.connect(path)
    names = [r[0] for r in con.execute(
        "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' "
        "and name not like '%fts%' and lower(name) != 'storebench_meta'")]
    out = {}
    for name in names:
        cols = con.execute(f"pragma table_info({name})").fetchall()
        pk = [c for c in cols if c[5]]
        if len(pk) == 1 and pk[0][2].upper() == "INTEGER":
            order = "rowid"
        else:
            order = ", ".join(str(i + 1) for i in range(len(cols)))
        cur = con.execute(f"select * from {name} order by {order}")
        crc, n = 0, 0
        while True:
            rows = cur.fetchmany(50000)
            if not rows:
                break
            crc = zlib.crc32(repr(rows).encode(), crc)
            n += len(rows)
        out[name.lower()] = (n, "%08x" % crc)
    con.close()
    return out


# db_size=1MB, seed 1, as loaded before the load's data path was rewritten for speed
# (docs/load-performance.md): the same rows byte for byte. Computed with a build of commit
# d85b382, the one that pinned S here first, before the rewrite (today's loader gives the same);
# S's 4.47 million rows took a 20-40 s load and 6 s of digests, most of this file's time. 1MB is
# S scaled by 1/10 (sizes.cc: S's bases; the same generator and load code, a tenth of the rows),
# and S's rows stay pinned as the generator makes them by
# tests/unit/dvdstore/generated_digest_test.cc.
PINNED_1MB_DIGESTS = {
    "categories": (16, "cbcc5f25"),
    "cust_hist": (6103, "abee296e"),
    "customers": (2000, "e4f7c03f"),
    "inventory": (1000, "cee6369c"),
    "membership": (200, "4025a0ad"),
    "orderlines": (6103, "ac377838"),
    "orders": (1200, "ed478623"),
    "products": (1000, "5cd3936a"),
    "reorder": (0, "00000000"),
    "reviews": (20000, "56b7e0b4"),
    "reviews_helpfulness": (410081, "63651fae"),
}


# Work started by setUpModule that the cases collect: the DS2 load and its paced run, the
# --csv-dir load and the paced DS3 stream run mostly wait out their seconds, so they run beside
# the cases instead of one after another (each on a file of its own: a run locks its database).
STARTED = {}
_POOL = concurrent.futures.ThreadPoolExecutor(max_workers=6)


def ds2_load_and_run():
    """Test_ds2_custom_size_with_warmup's load, the row counts it reads before the run adds
    customers, and its run."""
    db = tmp_path("it-ds2-2MB.db")
    harness.remove_sqlite(db)
    load = storebench("oltp", "load", "--db", "sqlite://" + db, "--db_size=2MB", "--ds2_mode=Y")
    if load.returncode != 0:
        return db, load, None, None
    con = sqlite3.connect(db)
    counts = {t: con.execute(f"select count(*) from {t}").fetchone()[0]
              for t in ("customers", "products")}
    counts["tables"] = {t for (t,) in con.execute(
        "select name from sqlite_master where type='table'")}
    con.close()
    # A think time keeps the run below ~2,000 orders: new customers draw their names from
    # newuser1..newuser4000 at this size (as DVD Store does), and an unpaced run on a quiet
    # machine (180,000 OPM) takes them all within seconds, after which every new customer
    # finds its name taken.
    run = storebench("oltp", "run", "--db", "sqlite://" + db, "--ds2_mode=Y", "--n_threads=2",
                     "--warmup_time=2s", "--run_time=3s", "--think_time=0.01", "--log_freq=1",
                     "--json", tmp_path("it-ds2.json"))
    return db, load, counts, run


def csv_dir_load():
    db = tmp_path("it-csv-1MB.db")
    csv_dir = tmp_path("it-csv")
    harness.remove_sqlite(db)
    return db, csv_dir, storebench("oltp", "load", "--db", "sqlite://" + db, "--db_size=1MB",
                                   "--csv-dir", csv_dir)


def copy_of(db, name):
    """A copy of the loaded file `db` for one case's run."""
    path = tmp_path(name)
    harness.remove_sqlite(path)
    shutil.copyfile(db, path)
    return path


def sigint_run(db):
    """Test_sigint_writes_valid_json's run: interrupted once it is measuring. Returns the exit
    status, stdout, stderr and the result's path."""
    out = tmp_path("it-sigint.json")
    if os.path.exists(out):
        os.remove(out)
    p = subprocess.Popen([harness.ARGS.binary, "oltp", "run", "--db", "sqlite://" + db,
                          "--n_threads=2", "--warmup_time=0", "--run_time=10",
                          "--log_freq=1", "--think_time=0.01", "--json", out],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    # Wait for the first status line so the run is measuring, then interrupt it. The lines
    # read here are part of stdout too.
    head = []
    deadline = time.time() + 60
    while time.time() < deadline:
        line = p.stdout.readline()
        head.append(line)
        if line.startswith("et="):
            break
    p.send_signal(signal.SIGINT)
    stdout, stderr = p.communicate(timeout=60)
    return p.returncode, "".join(head) + stdout, stderr, out


def locked_run(db):
    """Test_locked_database_exits_2's run while another connection holds the write lock."""
    con = sqlite3.connect(db, timeout=1)
    con.execute("BEGIN IMMEDIATE")
    try:
        return storebench("oltp", "run", "--db", "sqlite://" + db, "--run_time=1s",
                          "--warmup_time=0")
    finally:
        con.rollback()
        con.close()


def setUpModule():
    STARTED["ds2"] = _POOL.submit(ds2_load_and_run)
    STARTED["csv"] = _POOL.submit(csv_dir_load)
    db = tmp_path("it-ds3-1MB.db")
    harness.remove_sqlite(db)
    r = storebench("oltp", "load", "--db", "sqlite://" + db, "--db_size=1MB")
    assert r.returncode == 0, r.stderr
    # The stream case's run, on a copy of the loaded file. Paced (see the DS2 case) so new
    # customers do not run out of names.
    STARTED["stream"] = harness.storebench_started(
        "oltp", "run", "--db", "sqlite://" + copy_of(db, "it-ds3-stream.db"), "--db_size=1MB",
        "--n_threads=2", "--warmup_time=2s", "--run_time=3s", "--log_freq=1",
        "--think_time=0.01", "--json", tmp_path("it-ds3-stream.json"))
    # Test_run_status_final_json_verify's run. Paced (--think_time): the case reads the lines,
    # the result and verify, which need orders, not an unpaced run's thousands (4 threads on
    # SQLite kept both cores busy for the 4 s).
    STARTED["status_db"] = copy_of(db, "it-ds3-status.db")
    STARTED["status"] = harness.storebench_started(
        "oltp", "run", "--db", "sqlite://" + STARTED["status_db"], "--db_size=1MB",
        "--n_threads=4", "--warmup_time=0", "--run_time=4s", "--log_freq=2",
        "--think_time=0.01", "--json", tmp_path("it-run.json"),
        "--out_filename", tmp_path("it-run.csv"))
    # Two cases that wait (for the first status line; for the lock's busy timeout), each on a
    # copy of its own.
    STARTED["sigint"] = _POOL.submit(sigint_run, copy_of(db, "it-ds3-sigint.db"))
    STARTED["locked"] = _POOL.submit(locked_run, copy_of(db, "it-ds3-locked.db"))
    # The loaded file's row counts and digests before any run changes them (the only runs on
    # it are the cases'), while the runs above go on.
    con = sqlite3.connect(db)
    STARTED["loaded"] = {t: con.execute(f"select count(*) from {t}").fetchone()[0]
                         for t in ("customers", "products", "inventory", "categories",
                                   "membership", "reviews", "orders")}
    con.close()
    STARTED["digests"] = table_digests(db)


class DvdStoreSqliteTest(unittest.TestCase):
    db = None
    schema = None

    @classmethod
    def setUpClass(cls):
        cls.db = tmp_path("it-ds3-1MB.db")  # loaded by setUpModule
        # Row counts right after the load (runs add customers, orders, reviews), and the
        # digests before any run changes them: setUpModule read them.
        cls.loaded = STARTED["loaded"]
        cls.digests = STARTED["digests"]
        with open(os.path.join(harness.ARGS.source, "docs", "output-schema.json")) as f:
            cls.schema = json.load(f)

    def url(self):
        return "sqlite://" + self.db

    def test_ds3_stream_layout_read_by_a_script_splitting_on_spaces(self):
        # "ds3xdriver ... > run.log": every DS3 line is on stdout, in DS3's order (the run
        # setUpModule started).
        r = STARTED["stream"].result()
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = r.stdout.splitlines()
        for marker in ("et=", "Controller (", "Stats reset", "Final (", "Run over",
                       "n_purchase_from_start="):
            self.assertFalse([l for l in r.stderr.splitlines() if l.startswith(marker)], marker)

        def index(prefix):
            found = [i for i, l in enumerate(lines) if l.startswith(prefix)]
            self.assertEqual(len(found), 1, (prefix, r.stdout))
            return found[0]
        start = [i for i, l in enumerate(lines) if l.endswith("issuing Start")]
        self.assertEqual(len(start), 1, r.stdout)
        start = start[0]
        tok = lines[start].split(" ")
        # Controller (12/1/2026 6:05:03 PM): all threads connected - issuing Start
        self.assertRegex(" ".join(tok[1:4]), r"^\(\d{1,2}/\d{1,2}/\d{4} \d{1,2}:\d\d:\d\d [AP]M\):$")
        self.assertEqual(tok[4:], ["all", "threads", "connected", "-", "issuing", "Start"])
        status = []
        for l in lines:
            if not l.startswith("et="):
                continue
            t = l.split()
            fields = dict(x.split("=", 1) for x in t if "=" in x and not x.endswith("="))
            status.append((float(t[1]), int(fields["n_overall"]), int(fields["opm"])))
        reset = index("Stats reset")
        # Every second from Start: at 1 and 2 s of warm-up, then et counts from the reset (which
        # may come a little after 2 s: the server reading pauses the workers) up to the 3 s
        # window's end, where the Final line takes over.
        before = [l for l in lines[:reset] if l.startswith("et=")]
        self.assertEqual(len(before), 2, r.stdout)
        after = status[2:]
        self.assertIn(len(after), (2, 3), r.stdout)
        self.assertEqual([e for e, _, _ in after], sorted(e for e, _, _ in after))
        self.assertTrue(all(0 < e <= 3.0 for e, _, _ in after), r.stdout)
        final = index("Final (")
        stopped = [i for i, l in enumerate(lines) if l.endswith("all threads stopped, exiting")]
        self.assertEqual(len(stopped), 1, r.stdout)
        from_start = index("n_purchase_from_start=")
        over = index("Run over")
        self.assertLess(start, reset)
        self.assertLess(reset, final)
        self.assertLess(final, stopped[0])
        self.assertLess(stopped[0], from_start)
        self.assertLess(from_start, over)
        self.assertTrue(lines[stopped[0]].startswith("Controller ("))
        t = lines[from_start].split(" ")
        self.assertEqual((t[0], t[2]), ("n_purchase_from_start=", "n_rollbacks_from_start="))
        names, v = parse_final(lines[final])
        # The whole run (warm-up and wind-down included) holds at least the measured purchases.
        self.assertGreaterEqual(int(t[1]), v["n_purchase_overall"])
        self.assertGreaterEqual(int(t[3]), v["n_rollbacks_overall"])

    def test_loaded_rows_match_the_pinned_digests(self):
        self.assertEqual(self.digests, PINNED_1MB_DIGESTS)

    def test_load_row_counts(self):
        con = sqlite3.connect(self.db)
        counts = self.loaded
        # S's tenth (S's own counts: generated_digest_test).
        self.assertEqual(counts["orders"], 1200)
        self.assertEqual(counts["customers"], 2000)
        self.assertEqual(counts["products"], 1000)
        self.assertEqual(counts["inventory"], 1000)
        self.assertEqual(counts["categories"], 16)
        self.assertEqual(counts["membership"], 200)
        self.assertEqual(counts["reviews"], 20000)
        # Full-text search finds an actor of product 1.
        actor = con.execute("select actor from products where prod_id = 1").fetchone()[0]
        hits = con.execute("select count(*) from products_fts where products_fts match ?",
                           ('actor:"%s"' % actor,)).fetchone()[0]
        self.assertGreaterEqual(hits, 1)

    def test_load_records_its_session_settings(self):
        """What the data went in with and what the indexes sorted with, in storebench_meta
        (docs/load-performance.md): a result depends on them."""
        con = sqlite3.connect(self.db)
        meta = dict(con.execute("select key, value from storebench_meta where key in "
                                "('load_session', 'index_session', 'index_threads')"))
        con.close()
        self.assertIn("one writer thread for every table, a commit every batch of 16384 rows",
                      meta["load_session"])
        self.assertIn("INSERTs of up to 64 rows", meta["load_session"])
        self.assertIn("synchronous = OFF", meta["load_session"])
        self.assertEqual(meta["index_session"],
                         "PRAGMA cache_size = -262144, PRAGMA temp_store = FILE, "
                         "PRAGMA synchronous = OFF")
        self.assertEqual(meta["index_threads"], "1")

    def test_run_status_final_json_verify(self):
        out = tmp_path("it-run.json")
        csv = tmp_path("it-run.csv")
        r = STARTED["status"].result()  # the run setUpModule started, on a copy
        self.assertEqual(r.returncode, 0, r.stderr + r.stdout)
        # DS3's stream layout: status lines on stdout with the Final line.
        status = [l for l in r.stdout.splitlines() if l.startswith("et=")]
        # At 2 and 4 s (every log_freq seconds; 20 s at 5 took 14 s more, 6 s at 2 two more):
        # DS3 prints the run's last second too, then the Final line.
        self.assertEqual(len(status), 2, r.stdout)
        prev_n = -1
        for line in status:
            m = STATUS_RE.match(line)
            self.assertIsNotNone(m, repr(line))
            n, et = int(m["n"]), float(m["et"])
            self.assertGreater(n, prev_n)
            prev_n = n
            # et is printed with one decimal; opm was computed from the exact time.
            self.assertAlmostEqual(int(m["opm"]), 60 * n / et, delta=60 * n / et * 0.01 + 1)
        finals = [l for l in r.stdout.splitlines() if l.startswith("Final (")]
        self.assertEqual(len(finals), 1, r.stdout)
        names, v = parse_final(finals[0])
        self.assertEqual(names, FINAL_DS3_NAMES)
        self.assertGreater(v["n_overall"], 0)
        self.assertAlmostEqual(v["et"], 4.0, delta=0.2)
        self.assertAlmostEqual(v["opm"], 60 * v["n_overall"] / v["et"],
                               delta=60 * v["n_overall"] / v["et"] * 0.01 + 1)
        self.assertEqual(v["n_login_overall"] + v["n_newcust_overall"], v["n_overall"])
        self.assertEqual(v["n_purchase_overall"], v["n_overall"])
        self.assertLess(v["n_rollbacks_overall"], v["n_overall"])
        # JSON result: valid against the schema, and the same numbers as the console.
        with open(out) as f:
            doc = json.load(f)
        jsonschema.validate(doc, self.schema)
        self.assertEqual(doc["schema_version"], 2)
        self.assertEqual(doc["headline"]["value"], v["opm"])
        self.assertEqual(doc["figures"]["n_overall"], v["n_overall"])
        self.assertFalse(doc["interrupted"])
        self.assertTrue(doc["verify"])
        self.assertTrue(all(c["passed"] for c in doc["verify"]), doc["verify"])
        # One a second (6 s of run asked for 5 or more).
        self.assertGreaterEqual(len(doc["time_series"]["points"]), 3)
        self.assertIn("restock", doc["choices"])
        self.assertGreater(doc["driver"]["cpu_sec_per_op"], 0)
        ops = {o["type"]: o for o in doc["operations"]}
        self.assertEqual(ops["order"]["count"], v["n_overall"])
        self.assertLessEqual(ops["purchase"]["p50_ms"], ops["purchase"]["p99_ms"])
        # out_filename CSV: header and one row per status line.
        with open(csv) as f:
            rows = f.read().splitlines()
        self.assertTrue(rows[0].startswith("datetime et, n_overall, opm"))
        self.assertEqual(len(rows), 1 + len(status))
        # Standalone verify passes after the run.
        vr = storebench("oltp", "verify", "--db", "sqlite://" + STARTED["status_db"])
        self.assertEqual(vr.returncode, 0, vr.stdout + vr.stderr)
        self.assertIn("all checks passed", vr.stdout)

    def test_driver_config_file(self):
        cfg = tmp_path("DriverConfig.txt")
        with open(cfg, "w") as f:
            f.write("# written by CreateConfigFile.pl\r\n\r\ntarget=localhost\r\nn_threads=2\r\n"
                    "ramp_rate=10\r\nrun_time=0\r\ndb_size=1MB\r\nwarmup_time=0\r\n"
                    "think_time=0\r\npct_newcustomers=20\r\nn_searches=3\r\n"
                    "search_batch_size=5\r\nn_line_items=5\r\nvirt_dir=ds2\r\npage_type=php\r\n"
                    "windows_perf_host=\r\nlinux_perf_host=\r\ndetailed_view=N\r\n")
        out = tmp_path("it-config.json")
        # run_time in the file is 0 (until stopped); the command line's later value wins (1 s:
        # the case reads the settings the run recorded, not what it measured; 20 orders end
        # it sooner).
        r = storebench("oltp", "run", "--db", self.url(), "--config_file=" + cfg,
                       "--run_time=1s", "--units_total=20", "--json", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(out) as f:
            doc = json.load(f)
        self.assertEqual(doc["config"]["n_threads"], 2)
        self.assertEqual(doc["config"]["run_time"], 1)

    def test_sigint_writes_valid_json(self):
        # The run setUpModule started and interrupted (sigint_run).
        returncode, stdout, stderr, out = STARTED["sigint"].result()
        self.assertEqual(returncode, 130, stderr)
        self.assertIn("Final (", stdout)
        with open(out) as f:
            doc = json.load(f)
        jsonschema.validate(doc, self.schema)
        self.assertTrue(doc["interrupted"])
        self.assertLess(doc["measured_sec"], 30)
        self.assertTrue(all(c["passed"] for c in doc["verify"]), doc["verify"])

    def test_bad_input_exits_2(self):
        cases = [
            ["oltp", "run", "--db", self.url(), "--n_thread=4"],            # unknown parameter
            ["oltp", "run", "--db", self.url(), "--db_size=1.5GB"],         # bad size
            ["oltp", "run", "--db", self.url(), "--db_size=M"],             # size mismatch
            ["oltp", "run", "--db", "sqlite://" + tmp_path("missing.db")],  # missing file
            ["oltp", "load", "--db", self.url(), "--db_size=1MB"],          # refuses overwrite
        ]
        bad_cfg = tmp_path("bad-config.txt")
        with open(bad_cfg, "w") as f:
            f.write("n_threads=2\nthis line has no equals sign\n")
        cases.append(["oltp", "run", "--db", self.url(), "--config_file=" + bad_cfg])
        empty = tmp_path("empty.db")
        sqlite3.connect(empty).close()
        if os.path.exists(empty):
            os.remove(empty)
        open(empty, "w").close()
        cases.append(["oltp", "run", "--db", "sqlite://" + empty])          # empty database
        for args in cases:
            r = storebench(*args)
            self.assertEqual(r.returncode, 2, f"{args}: {r.stderr}")
            msg = r.stderr.strip().splitlines()[-1]
            self.assertTrue(msg.startswith("storebench: "), msg)
        r = storebench("oltp", "run", "--db", self.url(), "--db_size=1.5GB")
        self.assertIn("1.5GB", r.stderr)
        r = storebench("oltp", "run", "--db", self.url(), "--config_file=" + bad_cfg)
        self.assertIn(":2", r.stderr)

    def test_load_never_touches_foreign_files(self):
        text = tmp_path("not-a-db.txt")
        with open(text, "w") as f:
            f.write("precious text, not a database\n" * 100)
        r = storebench("oltp", "load", "--db", "sqlite://" + text, "--db_size=S", "--force")
        self.assertEqual(r.returncode, 2, r.stderr)
        with open(text) as f:
            self.assertEqual(f.read(), "precious text, not a database\n" * 100)
        other = tmp_path("other-app.db")
        if os.path.exists(other):
            os.remove(other)
        con = sqlite3.connect(other)
        con.execute("create table customers (id integer)")
        con.execute("insert into customers values (42)")
        con.commit()
        con.close()
        r = storebench("oltp", "load", "--db", "sqlite://" + other, "--db_size=S", "--force")
        self.assertEqual(r.returncode, 2, r.stderr)
        con = sqlite3.connect(other)
        self.assertEqual(con.execute("select id from customers").fetchall(), [(42,)])

    def test_locked_database_exits_2(self):
        r = STARTED["locked"].result()  # the run setUpModule started (locked_run)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("locked", r.stderr)


class CsvDirTest(unittest.TestCase):
    """--csv-dir writes DVD Store-style CSV files of exactly the rows loaded."""

    def test_csv_dir_matches_loaded_rows(self):
        db, csv_dir, r = STARTED["csv"].result()  # the load setUpModule started
        self.assertEqual(r.returncode, 0, r.stderr)
        con = sqlite3.connect(db)
        for table in ("customers", "orders", "orderlines", "products", "inventory", "reviews"):
            with open(os.path.join(csv_dir, table + ".csv")) as f:
                lines = f.read().splitlines()
            n = con.execute(f"select count(*) from {table}").fetchone()[0]
            self.assertEqual(len(lines), n, table)
        with open(os.path.join(csv_dir, "customers.csv")) as f:
            rows = f.read().splitlines()
        us = re.compile(r"^\d+,[A-Z]{6},[A-Z]{10},\d{10} Dell Way,,[A-Z]{7},[A-Z]{2},\d{5},US,1,"
                        r"[A-Z]{10}@dell\.com,\d{10},[1-5],\d{16},20(1[5-9])/\d\d,user\d+,"
                        r"password,\d{2},\d{5,6},[MF]$")
        us_rows = [r for r in rows if ",US,1," in r]
        self.assertEqual(len(us_rows), len(rows) // 2)
        for row in us_rows[:100]:
            self.assertRegex(row, us)


FINAL_DS2_NAMES = [
    "et", "n_overall", "opm", "rt_tot_lastn_max", "rt_tot_avg", "n_login_overall",
    "n_newcust_overall", "n_browse_overall", "n_purchase_overall", "rt_login_avg_msec",
    "rt_newcust_avg_msec", "rt_browse_avg_msec", "rt_purchase_avg_msec", "rt_tot_sampled",
    "n_rollbacks_overall"]


class Ds2WarmupTest(unittest.TestCase):
    """DVD Store 2 mode on a custom size, with a warm-up that resets the stats."""

    def test_ds2_custom_size_with_warmup(self):
        # The load, its row counts before the run and the run: setUpModule started them
        # (ds2_load_and_run).
        db, r, counts, run = STARTED["ds2"].result()
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(counts["customers"], 4000)
        self.assertEqual(counts["products"], 2000)
        tables = counts["tables"]
        self.assertNotIn("reviews", tables)
        out = tmp_path("it-ds2.json")
        r = run
        self.assertEqual(r.returncode, 0, r.stderr)
        # DS3's driver in DS2 mode writes its lines where it always does: on stdout.
        self.assertIn("Stats reset", r.stdout)
        self.assertEqual([l for l in r.stdout.splitlines() if l == "Run over"], ["Run over"])
        finals = [l for l in r.stdout.splitlines() if l.startswith("Final (")]
        names, v = parse_final(finals[0])
        self.assertEqual(names, FINAL_DS2_NAMES)
        self.assertAlmostEqual(v["et"], 3.0, delta=0.2)  # the measured window only
        with open(out) as f:
            doc = json.load(f)
        phases = [p["phase"] for p in doc["time_series"]["points"]]
        self.assertEqual(phases[0], "warmup")
        self.assertEqual(phases[-1], "measure")
        # The window's order count is below the whole run's (warm-up orders are excluded).
        self.assertLess(doc["figures"]["n_overall"],
                        sum(p["counts"][0] for p in doc["time_series"]["points"]) + 1)
        self.assertTrue(all(c["passed"] for c in doc["verify"]), doc["verify"])
        # A DS3 run against the DS2 database is refused with a clear message.
        r = storebench("oltp", "run", "--db", "sqlite://" + db, "--run_time=1s")
        self.assertEqual(r.returncode, 2)
        self.assertIn("ds2_mode", r.stderr)


if __name__ == "__main__":
    harness.main()
