"""SQLite's restore from what runs write (docs/consolidation.md, "Restore before every run").

A DVD Store database's restore no longer copies the pristine file over the database: the copy is
attached and, in one transaction, the rows runs appended are deleted and INVENTORY, MEMBERSHIP and
REORDER refilled from it. The file then differs from the copy in its bytes (free pages), so
equality is checked on rows: every b-tree table (sqlite_stat1, sqlite_sequence and the full-text
index's shadow tables too) with each row's rowid, which is what the next INSERT's id comes from,
and the schema. The file's inode shows which method ran: kept in place, or replaced by a copy."""
import hashlib
import json
import os
import shutil
import sqlite3
import unittest

import harness
from harness import storebench, tmp_path

SIZE = "--db_size=1MB"
# A run that writes rows: 20 orders end it (1 s at most), every thread connected at once.
RUN = ["--n_threads=2", "--warmup_time=0", "--run_time=1s", "--units_total=20",
       "--ramp_rate=1000", "--think_time=0.01"]


def ok(test, result):
    test.assertEqual(result.returncode, 0, result.stdout + result.stderr)
    return result


def row_digest(path):
    """{table: (row count, sha256 of its rows with their rowids, in rowid order)}."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    without_rowid = {name for name, wr in db.execute(
        "SELECT name, wr FROM pragma_table_list WHERE schema = 'main'") if wr}
    out = {}
    tables = [t for (t,) in db.execute("SELECT name FROM sqlite_schema WHERE type = 'table' AND "
                                       "rootpage > 0 ORDER BY name")]
    for table in tables + ["sqlite_schema"]:
        q = table.replace('"', '""')
        sql = (f'SELECT * FROM "{q}" ORDER BY 1' if table in without_rowid
               else f'SELECT rowid, * FROM "{q}" ORDER BY rowid')
        rows = [repr(r) for r in db.execute(sql)]
        out[table] = (len(rows), hashlib.sha256("\n".join(rows).encode()).hexdigest())
    db.close()
    return out


def row_counts(path):
    """{table: row count} of the tables row_digest reads: the first half of each digest, read
    in milliseconds (a digest reads every row in Python: most of this file's time)."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    tables = [t for (t,) in db.execute("SELECT name FROM sqlite_schema WHERE type = 'table' AND "
                                       "rootpage > 0 ORDER BY name")]
    out = {t: db.execute(f'SELECT count(*) FROM "{t.replace(chr(34), chr(34) * 2)}"').fetchone()[0]
           for t in tables + ["sqlite_schema"]}
    db.close()
    return out


class SqliteRowRestoreTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.loaded = tmp_path("rows-restore-loaded.db")
        harness.remove_sqlite(cls.loaded, ("", "-wal", "-shm", ".storebench-pristine"))
        r = storebench("oltp", "load", "--db", "sqlite://" + cls.loaded, SIZE, "--pristine=Y")
        assert r.returncode == 0, r.stdout + r.stderr
        # Each case's file starts as a byte copy of this one: its rows are read once, here.
        cls.loaded_digest = row_digest(cls.loaded)

    def setUp(self):
        self.path = tmp_path(self.id().rsplit(".", 1)[1] + ".db")
        for suffix in ("", "-wal", "-shm", ".storebench-pristine"):
            if os.path.exists(self.path + suffix):
                os.remove(self.path + suffix)
            if os.path.exists(self.loaded + suffix):
                shutil.copyfile(self.loaded + suffix, self.path + suffix)
        self.url = "sqlite://" + self.path

    def run_changes_rows(self, loaded):
        ok(self, storebench("oltp", "run", "--db", self.url, SIZE, *RUN))
        # A digest holds its table's row count, so a count that differs makes the digests
        # differ: every row is read only when the counts are all the same.
        self.assertTrue(row_counts(self.path) != {t: n for t, (n, _) in loaded.items()}
                        or row_digest(self.path) != loaded, "the run changed no rows")

    def test_restore_brings_back_every_row_in_place(self):
        loaded = self.loaded_digest
        self.assertEqual(row_digest(self.path + ".storebench-pristine"), loaded)
        inode = os.stat(self.path).st_ino
        self.run_changes_rows(loaded)
        r = ok(self, storebench("oltp", "restore", "--db", self.url))
        self.assertIn("what dvdstore runs write: 6 tables lost the rows", r.stderr)
        self.assertIn("3 were refilled", r.stderr)
        self.assertEqual(row_digest(self.path), loaded)
        self.assertEqual(os.stat(self.path).st_ino, inode, "the file was replaced")
        verify = ok(self, storebench("oltp", "verify", "--db", self.url, SIZE))
        self.assertIn("all checks passed", verify.stdout)
        # A second run and restore start from the restored file (its free pages reused).
        self.run_changes_rows(loaded)
        ok(self, storebench("oltp", "restore", "--db", self.url))
        self.assertEqual(row_digest(self.path), loaded)
        # A workload that says nothing of DVD Store's tables: the whole file, as before.
        self.run_changes_rows(loaded)
        r = ok(self, storebench("oltp", "restore", "--db", self.url, "--workload", "oltp"))
        self.assertIn("(file copy; ", r.stderr)
        self.assertEqual(row_digest(self.path), loaded)
        self.assertNotEqual(os.stat(self.path).st_ino, inode, "the file was not copied")

    def test_run_records_the_restore_of_what_runs_write(self):
        loaded = self.loaded_digest
        self.run_changes_rows(loaded)
        path = tmp_path("rows-restore-run.json")
        ok(self, storebench("oltp", "run", "--db", self.url, SIZE, *RUN, "--restore=Y",
                            "--json", path))
        with open(path) as fh:
            doc = json.load(fh)
        self.assertTrue(doc["restore"]["method"].startswith("what dvdstore runs write: "),
                        doc["restore"]["method"])
        self.assertGreaterEqual(doc["restore"]["seconds"], 0)
        # The run after the restore started from the loaded rows: a restore now gives them back.
        ok(self, storebench("oltp", "restore", "--db", self.url))
        self.assertEqual(row_digest(self.path), loaded)


if __name__ == "__main__":
    harness.main()
