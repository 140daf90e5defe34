"""--restore: a database brought back to the state it was loaded in (docs/consolidation.md).

For SQLite, PostgreSQL and MariaDB: load a small DVD Store database keeping a pristine copy
(--pristine=Y), take a digest of every table's rows, run (the rows change), restore, and the
digest must equal the loaded one and `verify` must pass. `run --restore` records how and how
long in its result. The refusals leave the database as it was: no pristine copy, a table added
since the copy (it would be lost), a database loaded again since the copy, a database of the
copy's name that storebench did not make. The SQLite cases each start from a copy of one load
(the files the load wrote); the server cases from one load per class, restored before each case
and checked against the digest taken after the load.

The servers come from STOREBENCH_PG_URL / STOREBENCH_MYSQL_URL (database sbtest_restore); without
them the server cases skip, unless STOREBENCH_REQUIRE_SERVICES=1."""
import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import unittest
import urllib.parse

import check_schema
import harness
from harness import storebench, tmp_path

SIZE = "--db_size=1MB"
# 20 orders change the rows a restore brings back (new orders, their lines and history, stock)
# on every back end; the run ends when they are done (a 1-s run took 2 s each, and the cases run
# a dozen). --run_time only bounds a run that cannot get its orders done. Both connections open
# at once (the default ramp staggers them up to 0.2 s).
RUN = ["--n_threads=2", "--warmup_time=0", "--units_total=20", "--run_time=60s",
       "--think_time=0.01", "--ramp_rate=1000"]
# The runs that are there only to change rows skip the server cross-check, which nothing here
# reads (its readings at the start and the end took ~1 s of each 2-s run on a server); the run
# whose result the cases check keeps it.
CHANGE_ROWS = RUN + ["--server_check=N"]
DATABASE = "sbtest_restore"


def ok(test, result):
    test.assertEqual(result.returncode, 0, result.stdout + result.stderr)
    return result


def client(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, f"{' '.join(cmd)} failed: {r.stderr}"
    return [l for l in r.stdout.splitlines() if l]


def psql(url, sql, user="storebench", database=DATABASE):
    u = urllib.parse.urlsplit(url)
    return client(["psql", "-X", "-A", "-t", "-q", "-v", "ON_ERROR_STOP=1", "-h", u.hostname,
                   "-p", str(u.port), "-U", user, "-d", database, "-c", sql])


def mariadb(url, sql):
    u = urllib.parse.urlsplit(url)
    return client(["mariadb", "--no-defaults", "--batch", "--skip-column-names", "-h",
                   u.hostname, "-P", str(u.port), "-u", "storebench", "-e", sql])


def remove_sqlite(path):
    """The database file, its log and index, and its pristine copy."""
    for suffix in ("", "-wal", "-shm", ".storebench-pristine"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)


def sqlite_digest(path):
    """Every table's rows, sorted, hashed: equal digests mean equal rows. SQLite sorts them by
    every column (rows that compare equal column by column are the same values), and each is
    hashed as it comes: sorting the rows' text in Python took most of a digest's ~1.5 s."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    out = {}
    for (table,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name "
                               "NOT LIKE 'sqlite_%' AND name NOT LIKE '%fts%' ORDER BY name"):
        columns = len(db.execute(f'PRAGMA table_info("{table}")').fetchall())
        order = ", ".join(str(i) for i in range(1, columns + 1))
        digest, count = hashlib.sha256(), 0
        for row in db.execute(f'SELECT * FROM "{table}" ORDER BY {order}'):
            digest.update(repr(row).encode() + b"\n")
            count += 1
        out[table] = (count, digest.hexdigest())
    db.close()
    return out


def pg_digest(url, only=None):
    """One psql call for every table (a call per table took ~2 s of each digest), and every
    sequence's value: the next key a run's INSERT gets is the loaded state's. The server writes
    the query from its list of tables and psql's \\gexec runs it, in the same call (a call for
    the list took another 0.1-0.6 s on the loaded machine). With `only`, the digest of those
    tables alone (no sequences)."""
    row = ("format('SELECT %L, count(*), md5(coalesce(string_agg(x::text, ''|'' ORDER BY "
           "x::text), '''')) FROM %I x', table_name, table_name)")
    query = f"SELECT string_agg({row}, ' UNION ALL ')"
    if only is None:
        query += (" || ' UNION ALL SELECT ''sequence '' || sequencename, 0, "
                  "coalesce(last_value, 0)::text FROM pg_sequences WHERE schemaname = "
                  "current_schema()'")
    query += (" FROM information_schema.tables WHERE table_schema = current_schema() AND "
              "table_type = 'BASE TABLE'")
    if only is not None:
        query += " AND table_name IN (" + ", ".join(f"'{t}'" for t in only) + ")"
    u = urllib.parse.urlsplit(url)
    cmd = ["psql", "-X", "-A", "-t", "-q", "-v", "ON_ERROR_STOP=1", "-h", u.hostname, "-p",
           str(u.port), "-U", "storebench", "-d", DATABASE, "-f", "-"]
    r = subprocess.run(cmd, input=query + " \\gexec\n", capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, f"the digest's psql failed: {r.stderr}"
    return {t: f"{count}|{md5}" for t, count, md5 in
            (line.split("|") for line in r.stdout.splitlines() if line)}


def my_digest(url):
    """Every table's row count, CHECKSUM TABLE and next auto-increment key, in one client call
    (three calls per table took ~1.5 s of each digest)."""
    tables = mariadb(url, f"SELECT table_name FROM information_schema.tables WHERE table_schema "
                          f"= '{DATABASE}' AND table_type = 'BASE TABLE' ORDER BY 1")
    counts = " UNION ALL ".join(
        f"SELECT 'count', '{t}', count(*) FROM `{DATABASE}`.`{t}`" for t in tables)
    checksums = "CHECKSUM TABLE " + ", ".join(f"`{DATABASE}`.`{t}`" for t in tables)
    # The next key a run's INSERT gets: the loaded state's, not one after the run's rows.
    autos = (f"SELECT 'auto', table_name, coalesce(auto_increment, 0) FROM "
             f"information_schema.tables WHERE table_schema = '{DATABASE}' AND table_type = "
             f"'BASE TABLE'")
    got = {}
    for line in mariadb(url, f"{counts}; {checksums}; {autos}"):
        fields = line.split("\t")
        if fields[0] in ("count", "auto"):
            got[(fields[0], fields[1])] = fields[2]
        else:  # CHECKSUM TABLE: `database.table`, checksum
            got[("checksum", fields[0].split(".", 1)[1])] = fields[1]
    return {t: (got[("count", t)], got[("checksum", t)], got[("auto", t)]) for t in tables}


class RestoreCases:
    """The same cases on every back end; subclasses set url and digest()."""

    def assertRunChangedRows(self, loaded):
        """The database's digest differs from the loaded one. A subclass may compare only the
        tables every order writes (changed_digest): a difference there is one of the whole."""
        changed, loaded_part = self.changed_digest(loaded)
        self.assertNotEqual(changed, loaded_part, "the run changed no rows")

    def changed_digest(self, loaded):
        return self.digest(), loaded

    def test_restore_brings_back_the_loaded_rows(self):
        loaded = self.loaded_digest()
        ok(self, storebench("oltp", "run", "--db", self.url, SIZE, *CHANGE_ROWS,
                            "--json", tmp_path(self.name + "-run.json")))
        self.assertRunChangedRows(loaded)
        ok(self, storebench("oltp", "restore", "--db", self.url))
        self.assertEqual(self.digest(), loaded)
        verify = ok(self, storebench("oltp", "verify", "--db", self.url, SIZE))
        self.assertIn("all checks passed", verify.stdout)
        # verify only reads (its counts under the database's lock): the rows are the loaded ones.
        self.ended_on_the_loaded_rows()

    def test_run_restore_records_method_and_time(self):
        path = tmp_path(self.name + "-restore.json")
        r = ok(self, storebench("oltp", "run", "--db", self.url, SIZE, *RUN, "--restore=Y",
                                "--json", path))
        self.assertIn("to its pristine copy in", r.stderr)
        with open(path) as fh:
            doc = json.load(fh)
        self.assertGreaterEqual(doc["restore"]["seconds"], 0)
        self.assertTrue(doc["restore"]["method"])
        self.assertIn("restore", doc["choices"])
        self.assertTrue(all(c["passed"] for c in doc["verify"]), doc["verify"])
        # In this process (a python3 and its import of jsonschema took ~1 s of the case).
        status, messages = check_schema.check(
            path, os.path.join(harness.ARGS.source, "docs/output-schema.json"))
        self.assertEqual(status, 0, messages)


class SqliteRestoreTest(RestoreCases, unittest.TestCase):
    name = "sqlite"

    @classmethod
    def setUpClass(cls):
        # Loaded once (with its pristine copy), then copied for each case: a load took ~2 s of
        # CPU, seven of them most of this class's time. Each case gets the load's files byte
        # for byte (the write-ahead log too, if the load left one; no process has them open).
        cls.loaded = tmp_path("restore-loaded.db")
        remove_sqlite(cls.loaded)
        r = storebench("oltp", "load", "--db", "sqlite://" + cls.loaded, SIZE, "--pristine=Y")
        assert r.returncode == 0, r.stdout + r.stderr
        cls.loaded_rows = sqlite_digest(cls.loaded)

    def setUp(self):
        self.path = tmp_path("restore.db")
        remove_sqlite(self.path)
        self.url = "sqlite://" + self.path
        for suffix in ("", "-wal", ".storebench-pristine"):
            if os.path.exists(self.loaded + suffix):
                shutil.copyfile(self.loaded + suffix, self.path + suffix)

    def digest(self):
        return sqlite_digest(self.path)

    def loaded_digest(self):
        # Each case's database is a byte-for-byte copy of the class's load.
        return self.loaded_rows

    def ended_on_the_loaded_rows(self):
        pass  # each case starts from a copy of the class's load (setUp)

    def file_bytes(self):
        with open(self.path, "rb") as fh:
            return hashlib.sha256(fh.read()).hexdigest()

    def test_no_pristine_copy_is_refused(self):
        os.remove(self.path + ".storebench-pristine")
        r = storebench("oltp", "restore", "--db", self.url)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("has no pristine copy", r.stderr)
        self.assertIn("oltp pristine", r.stderr)
        r = storebench("oltp", "run", "--db", self.url, SIZE, *RUN, "--restore=Y")
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("has no pristine copy", r.stderr)

    def test_table_added_since_the_copy_is_kept(self):
        db = sqlite3.connect(self.path)
        db.execute("CREATE TABLE notes (x TEXT)")
        db.execute("INSERT INTO notes VALUES ('mine')")
        db.commit()
        db.close()
        before = self.digest()
        r = storebench("oltp", "restore", "--db", self.url)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("lacks (notes)", r.stderr)
        self.assertEqual(self.digest(), before)

    def test_database_loaded_again_is_refused(self):
        ok(self, storebench("oltp", "load", "--db", self.url, SIZE, "--force=Y", "--seed=7"))
        before = self.file_bytes()
        r = storebench("oltp", "restore", "--db", self.url)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("loaded again", r.stderr)
        self.assertEqual(self.file_bytes(), before)

    def test_pristine_command_copies_a_loaded_database(self):
        os.remove(self.path + ".storebench-pristine")
        ok(self, storebench("oltp", "pristine", "--db", self.url, SIZE))
        self.assertTrue(os.path.exists(self.path + ".storebench-pristine"))
        r = storebench("oltp", "pristine", "--db", self.url, "--db_size=2MB")
        self.assertEqual(r.returncode, 2, r.stderr)

    def test_restore_through_a_symbolic_link_restores_its_target(self):
        # The link in another directory: the pristine copy is the real file's, and the restore
        # renames the copy over the target, never over the link (which it used to replace).
        links = tmp_path("restore-links")
        os.makedirs(links, exist_ok=True)
        link = os.path.join(links, "other-name.db")
        if os.path.lexists(link):
            os.remove(link)
        os.symlink(self.path, link)
        self.addCleanup(os.remove, link)
        loaded = self.loaded_digest()
        ok(self, storebench("oltp", "run", "--db", "sqlite://" + link, SIZE, *CHANGE_ROWS))
        self.assertNotEqual(self.digest(), loaded, "the run changed no rows")
        ok(self, storebench("oltp", "restore", "--db", "sqlite://" + link))
        self.assertTrue(os.path.islink(link), "the restore replaced the link")
        self.assertEqual(os.readlink(link), self.path)
        self.assertEqual(self.digest(), loaded)
        self.assertFalse(os.path.exists(link + ".storebench-restore"))

    def test_plan_restores_every_instance_before_every_run(self):
        plan = tmp_path("restore-plan.toml")
        dbs = [tmp_path(f"restore-plan-{i}.db") for i in (1, 2)]
        # The class's load with its pristine copy, for each instance (the plan loading its two
        # took 4 s): the plan's `load = true` loads only missing databases.
        for p in dbs:
            remove_sqlite(p)
            for suffix in ("", "-wal", ".storebench-pristine"):
                if os.path.exists(self.loaded + suffix):
                    shutil.copyfile(self.loaded + suffix, p + suffix)
        with open(plan, "w") as fh:
            # 10 orders per instance, then the run ends (a 1-s run took a second more).
            fh.write('[run]\nrun_time = "60s"\nwarmup_time = "0s"\nrestore = true\n\n'
                     '[[group]]\nname = "ds"\ncount = 2\nworkload = "dvdstore"\n'
                     f'db = "sqlite://{tmp_path("restore-plan-")}{{i}}.db"\nload = true\n'
                     '[group.options]\ndb_size = "1MB"\nn_threads = 1\nthink_time = 0.01\n'
                     'units_per_thread = 10\n')
        first = tmp_path("restore-plan-1.json")
        ok(self, storebench("run", "--plan", plan, "--json", first))
        loaded = [sqlite_digest(p + ".storebench-pristine") for p in dbs]
        second = tmp_path("restore-plan-2.json")
        r = ok(self, storebench("run", "--plan", plan, "--json", second))
        self.assertEqual(r.stderr.count("to its pristine copy in"), 2, r.stderr)
        with open(second) as fh:
            doc = json.load(fh)
        for inst in doc["instances"]:
            self.assertGreaterEqual(inst["restore"]["seconds"], 0, inst["name"])
        # The copies were taken at the load and never changed by a run.
        self.assertEqual([sqlite_digest(p + ".storebench-pristine") for p in dbs], loaded)


def server_load(cls):
    """Loads the class's server database once with its pristine copy; returns its digest (None
    without a reachable server: setUp then skips, or fails under STOREBENCH_REQUIRE_SERVICES)."""
    if not harness.reachable(cls.url):
        return None
    r = storebench("oltp", "load", "--db", cls.url, SIZE, "--force=Y", "--pristine=Y")
    assert r.returncode == 0, r.stdout + r.stderr
    return cls.digest(cls)


class ServerRestoreCases(RestoreCases):
    """One load per class (a MariaDB load with its copy took ~9 s, one per case most of the
    class's time); each case starts from the loaded rows, restored from the copy and compared
    with the digest taken right after the load, so every case still starts from a load's rows."""

    # The database holds the loaded rows (nothing has run since the load, or the last case
    # ended comparing them with the load's digest): the next case needs no restore first.
    fresh = True

    def loaded_digest(self):
        # setUp has just compared the database with the load's digest, or it has held the
        # loaded rows since (`fresh`): the case starts from those (a PostgreSQL digest takes
        # ~2 s).
        return self.loaded

    def setUp(self):
        harness.require_server(self, self.url)
        if not type(self).fresh:
            ok(self, storebench("oltp", "restore", "--db", self.url))
            self.assertEqual(self.digest(), self.loaded, "the restore before the case")
        type(self).fresh = False

    def ended_on_the_loaded_rows(self):
        """Called after a case's last assertion compared the database with the load's digest
        (a restore and a PostgreSQL digest took ~3 s of the next case's setUp)."""
        type(self).fresh = True


class PostgresRestoreTest(ServerRestoreCases, unittest.TestCase):
    name = "postgres"

    @classmethod
    def setUpClass(cls):
        cls.url = harness.server_url("STOREBENCH_PG_URL", DATABASE)
        cls.loaded = server_load(cls)

    def digest(self):
        return pg_digest(self.url)

    # The tables every DVD Store order writes (a purchase's order, its lines and history): that
    # a run changed rows is seen in their digest, without the reviews' 430,000 rows that took
    # most of a whole digest's ~1 s.
    ORDER_TABLES = ("orders", "orderlines", "cust_hist")

    def changed_digest(self, loaded):
        part = {t: loaded[t] for t in self.ORDER_TABLES}
        return pg_digest(self.url, only=self.ORDER_TABLES), part

    def test_other_sessions_block_the_restore_without_harm(self):
        ok(self, storebench("oltp", "run", "--db", self.url, SIZE, *CHANGE_ROWS))
        changed = self.digest()
        u = urllib.parse.urlsplit(self.url)
        # A session of someone else's on the database, open while the restore tries to drop it.
        holder = subprocess.Popen(["psql", "-X", "-q", "-h", u.hostname, "-p", str(u.port), "-U",
                                   "storebench", "-d", DATABASE, "-c", "SELECT pg_sleep(20)"])
        try:
            for _ in range(100):
                busy = psql(self.url, "SELECT count(*) FROM pg_stat_activity WHERE query LIKE "
                                      "'SELECT pg_sleep%'")
                if busy != ["0"]:
                    break
            # A workload that says nothing of DVD Store's tables: the restore drops the database
            # and copies it back whole (the restore from what runs write drops nothing).
            r = storebench("oltp", "restore", "--db", self.url, "--workload", "oltp")
        finally:
            holder.kill()
            holder.wait()
            # Its server session would sleep on after the client has gone.
            psql(self.url, "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE "
                           "query LIKE 'SELECT pg_sleep%' AND pid <> pg_backend_pid()")
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("in use by other sessions", r.stderr)
        self.assertEqual(self.digest(), changed)


    def test_restore_brings_back_only_what_runs_write(self):
        # DVD Store says which tables its runs write (Workload::WhatRunsWrite): the restore
        # deletes the rows runs appended, refills the tables they rewrite from the copy and sets
        # the sequences back, without dropping the database; the digest (every table's rows and
        # every sequence's value) must still be the loaded one.
        loaded = self.loaded_digest()
        before = psql(self.url, "SELECT oid FROM pg_database WHERE datname = current_database()")
        ok(self, storebench("oltp", "run", "--db", self.url, SIZE, *CHANGE_ROWS))
        self.assertRunChangedRows(loaded)
        r = ok(self, storebench("oltp", "restore", "--db", self.url))
        self.assertIn("what dvdstore runs write: 6 tables lost the rows", r.stderr)
        self.assertIn("3 were refilled", r.stderr)
        self.assertEqual(self.digest(), loaded)
        self.assertEqual(psql(self.url, "SELECT oid FROM pg_database WHERE datname = "
                                        "current_database()"), before, "the database was dropped")
        # Another workload's word is not taken for a DVD Store database: the template copy.
        ok(self, storebench("oltp", "run", "--db", self.url, SIZE, *CHANGE_ROWS))
        r = ok(self, storebench("oltp", "restore", "--db", self.url, "--workload", "oltp"))
        self.assertIn("CREATE DATABASE ... TEMPLATE", r.stderr)
        self.assertEqual(self.digest(), loaded)
        self.ended_on_the_loaded_rows()


class MariadbRestoreTest(ServerRestoreCases, unittest.TestCase):
    name = "mariadb"

    @classmethod
    def setUpClass(cls):
        cls.url = harness.server_url("STOREBENCH_MYSQL_URL", DATABASE)
        if harness.reachable(cls.url):
            mariadb(cls.url, f"DROP DATABASE IF EXISTS `{DATABASE}_sbpristine`")
        cls.loaded = server_load(cls)

    def digest(self):
        return my_digest(self.url)

    def test_restore_brings_back_only_what_runs_write(self):
        # DVD Store says which tables its runs write (Workload::WhatRunsWrite): the restore
        # trims and refills those and compares no checksums; the digest (every table's
        # CHECKSUM TABLE, count and next AUTO_INCREMENT) must still be the loaded one.
        loaded = self.loaded_digest()
        ok(self, storebench("oltp", "run", "--db", self.url, SIZE, *CHANGE_ROWS))
        r = ok(self, storebench("oltp", "restore", "--db", self.url))
        self.assertIn("what dvdstore runs write: 6 tables lost the rows", r.stderr)
        self.assertEqual(self.digest(), loaded)
        # The copy's largest ids, read once (the copy has no indexes), are kept beside it and
        # read by the next restore.
        self.assertEqual(mariadb(self.url, "SELECT count(*) FROM "
                                           f"`{DATABASE}_sbpristine`.storebench_pristine_max"),
                         ["6"])
        ok(self, storebench("oltp", "run", "--db", self.url, SIZE, *CHANGE_ROWS))
        r = ok(self, storebench("oltp", "restore", "--db", self.url))
        self.assertIn("what dvdstore runs write", r.stderr)
        self.assertEqual(self.digest(), loaded)
        # Another workload's word is not taken for a DVD Store database: every table compared.
        ok(self, storebench("oltp", "run", "--db", self.url, SIZE, *CHANGE_ROWS))
        r = ok(self, storebench("oltp", "restore", "--db", self.url, "--workload", "oltp"))
        self.assertIn("CHECKSUM TABLE", r.stderr)
        self.assertEqual(self.digest(), loaded)
        self.ended_on_the_loaded_rows()

    def test_foreign_database_of_the_copy_name_is_left_alone(self):
        mariadb(self.url, f"DROP DATABASE `{DATABASE}_sbpristine`; CREATE DATABASE "
                          f"`{DATABASE}_sbpristine`; CREATE TABLE `{DATABASE}_sbpristine`.keep "
                          f"(x INT); INSERT INTO `{DATABASE}_sbpristine`.keep VALUES (42)")
        try:
            r = storebench("oltp", "pristine", "--db", self.url, SIZE)
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertIn("is not storebench's pristine copy", r.stderr)
            r = storebench("oltp", "restore", "--db", self.url)
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertEqual(mariadb(self.url, f"SELECT x FROM `{DATABASE}_sbpristine`.keep"),
                             ["42"])
        finally:
            mariadb(self.url, f"DROP DATABASE IF EXISTS `{DATABASE}_sbpristine`")
            # The next case restores from a copy: taken again of the unchanged loaded rows.
            ok(self, storebench("oltp", "pristine", "--db", self.url, SIZE))


if __name__ == "__main__":
    harness.main()
