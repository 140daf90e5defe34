"""Database URLs and files the user names: secrets in a URL are refused and never echoed, every
scheme refuses parameters it does not apply, and a foreign SQLite file is refused without being
changed (issue #20, items 4, 5 and 14)."""
import os
import shutil
import sqlite3
import unittest

import harness
from harness import storebench, tmp_path

SECRET = "Tiger-Secret-123"


class DbInputTest(unittest.TestCase):
    def foreign_db(self, name):
        """A database of someone else's, in rollback-journal mode, with a table and rows."""
        path = tmp_path(name)
        harness.remove_sqlite(path, ("", "-wal", "-shm", "-journal"))
        con = sqlite3.connect(path)
        con.execute("PRAGMA journal_mode=DELETE")
        con.execute("CREATE TABLE accounts (id INTEGER PRIMARY KEY, owner TEXT)")
        con.executemany("INSERT INTO accounts (owner) VALUES (?)", [("a",), ("b",)])
        con.commit()
        con.close()
        return path

    def test_foreign_sqlite_file_is_refused_unchanged(self):
        path = self.foreign_db("foreign-unchanged.db")
        with open(path, "rb") as f:
            before = f.read()
        self.assertEqual(before[18:20], b"\x01\x01", "rollback-journal mode to start with")
        url = "sqlite://" + path
        for args in (["oltp", "run", "--db", url, "--run_time=1s", "--warmup_time=0",
                      "--json", tmp_path("foreign-run.json")],
                     ["oltp", "load", "--db", url, "--db_size=5MB"],
                     ["oltp", "verify", "--db", url],
                     ["oltp", "load", "--workload", "oltp", "--db", url],
                     ["oltp", "run", "--workload", "oltp", "--db", url, "--duration", "1s"],
                     ["oltp", "verify", "--workload", "oltp", "--db", url]):
            r = storebench(*args)
            self.assertEqual(r.returncode, 2, (args, r.stderr))
            with open(path, "rb") as f:
                after = f.read()
            self.assertEqual(after[18:20], before[18:20], (args, "journal mode bytes changed"))
            self.assertEqual(after[24:28], before[24:28], (args, "change counter changed"))
            self.assertTrue(after == before, (args, "the file changed"))
            self.assertFalse(os.path.exists(path + "-wal"), args)

    def test_sqlite_parameters_are_refused_not_ignored(self):
        path = self.foreign_db("foreign-mode-ro.db")
        with open(path, "rb") as f:
            before = f.read()
        r = storebench("oltp", "load", "--db", "sqlite://" + path + "?mode=ro", "--db_size=5MB")
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("parameter 'mode' is not supported for sqlite:// URLs", r.stderr)
        with open(path, "rb") as f:
            self.assertTrue(f.read() == before)

    def test_secret_in_a_url_is_refused_and_never_echoed(self):
        out = tmp_path("secret-url.json")
        if os.path.exists(out):
            os.remove(out)
        for url, hint in [
                (f"postgresql://storebench@127.0.0.1:1/x?sslpassword={SECRET}", "PGPASSWORD"),
                (f"postgresql://storebench@127.0.0.1:1/x?password={SECRET}", "~/.pgpass"),
                (f"mysql://storebench@127.0.0.1:1/x?password={SECRET}", "MYSQL_PWD"),
                (f"postgresql://storebench:{SECRET}@127.0.0.1:1/x", "PGPASSWORD")]:
            r = storebench("oltp", "run", "--db", url, "--run_time=1s", "--json", out)
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertIn(hint, r.stderr)
            self.assertNotIn(SECRET, r.stderr + r.stdout)
            self.assertFalse(os.path.exists(out))

    def test_server_urls_refuse_unknown_parameters_and_name_a_missing_database(self):
        r = storebench("oltp", "verify", "--db", "mysql://storebench@127.0.0.1:1/x?compress=1")
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("allowed: connect_timeout, read_timeout, write_timeout, ssl", r.stderr)
        r = storebench("oltp", "verify", "--db", "postgresql://storebench@127.0.0.1:1/x?bogus=1")
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("'bogus' is not supported for postgresql:// URLs (allowed: ", r.stderr)
        r = storebench("oltp", "verify", "--db", "mysql://storebench@127.0.0.1:3306")
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("the database name is missing", r.stderr)


class ForcedLoadDropTest(unittest.TestCase):
    """load --force marks the database unfinished before it drops anything: a load that fails
    (or is stopped) in its drop phase leaves tables gone and state=loading, which run refuses;
    it used to leave state=ready over the missing tables."""

    def test_a_drop_that_fails_halfway_leaves_an_unfinished_database(self):
        db = tmp_path("forced-drop.db")
        harness.remove_sqlite(db)
        url = "sqlite://" + db
        args = ["--workload=oltp", "--tables=2", "--table_size=100"]
        r = storebench("oltp", "load", "--db", url, *args)
        self.assertEqual(r.returncode, 0, r.stderr)
        # A row of the user's that refers to sbtest2: with SQLite's foreign keys on (as
        # storebench's connections have them), DROP TABLE sbtest2 fails after sbtest1 is gone
        # (https://www.sqlite.org/foreignkeys.html#fk_schemacommands).
        con = sqlite3.connect(db)
        con.execute("PRAGMA foreign_keys=ON")
        con.execute("CREATE TABLE mine (k INTEGER REFERENCES sbtest2(id))")
        con.execute("INSERT INTO mine VALUES (1)")
        con.commit()
        con.close()
        r = storebench("oltp", "load", "--db", url, *args, "--force")
        self.assertNotEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("FOREIGN KEY", r.stderr)
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        tables = {t for (t,) in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        state = con.execute("SELECT value FROM storebench_meta WHERE key = 'state'").fetchone()
        con.close()
        self.assertNotIn("sbtest1", tables, "the drop did not get as far as the test needs")
        self.assertEqual(state, ("loading",))
        r = storebench("oltp", "run", "--db", url, *args, "--run_time=1s", "--warmup_time=0")
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("load into this database did not finish", r.stderr)


class MessagesWithTheFixTest(unittest.TestCase):
    """Every refusal says what to do next (#18 item 9)."""

    def test_sqlite_url_with_two_slashes_names_both_spellings(self):
        r = storebench("oltp", "verify", "--db", "sqlite://tmp/x.db")
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("write sqlite:///tmp/x.db (three)", r.stderr)
        self.assertIn("sqlite://./tmp/x.db", r.stderr)
        self.assertFalse(os.path.exists("tmp/x.db"))

    def test_sqlite_load_refuses_a_missing_directory(self):
        # As sqlite3 does: the database file is created, never the directory it would go in.
        top = tmp_path("no-such-dir")
        if os.path.isdir(top):
            shutil.rmtree(top)
        for command in ("load", "run", "verify"):
            r = storebench("oltp", command, "--db", "sqlite://" + top + "/sub/ds.db",
                           "--db_size=1MB")
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertEqual(r.stderr.strip().splitlines(), [
                f"storebench: the directory '{top}/sub' of the database file does not exist; "
                "storebench creates the file, not its directory (as sqlite3 does): create it "
                f"first (mkdir -p '{top}/sub') or fix the path"])
            self.assertFalse(os.path.exists(top), command)
        # In a directory that exists, load creates the file.
        os.makedirs(top + "/sub")
        r = storebench("oltp", "load", "--workload=oltp", "--db", "sqlite://" + top + "/sub/o.db",
                       "--tables=1", "--table_size=10")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertTrue(os.path.exists(top + "/sub/o.db"))

    def test_no_server_says_how_to_start_one(self):
        # Port 1: nothing listens (refused at once).
        for url in ("postgresql://storebench@127.0.0.1:1/x", "mysql://storebench@127.0.0.1:1/x"):
            r = storebench("oltp", "verify", "--db", url)
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertIn("no server answers there: start it", r.stderr)
            self.assertIn("scripts/services.sh", r.stderr)
        r = storebench("oltp", "verify", "--db", "mysql://storebench@127.0.0.1:1/x")
        self.assertRegex(r.stderr, r"\(\d+\) \([A-Z][a-z]+")  # the bare errno, named

    def test_other_workloads_database_names_the_workload(self):
        db = tmp_path("msg-oltp.db")
        harness.remove_sqlite(db)
        url = "sqlite://" + db
        r = storebench("oltp", "load", "--workload=oltp", "--db", url, "--tables=1",
                       "--table_size=100")
        self.assertEqual(r.returncode, 0, r.stderr)
        r = storebench("oltp", "run", "--db", url, "--run_time=1s", "--warmup_time=0")
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("run it with --workload oltp", r.stderr)
        r = storebench("oltp", "run", "--workload=oltp", "--db", url, "--tables=2",
                       "--table_size=100", "--time=1")
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("run with --tables 1 --table_size 100", r.stderr)


if __name__ == "__main__":
    harness.main()
