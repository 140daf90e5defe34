"""`oltp load --dry_run` (docs/load-performance.md#the-plan-before-a-load): DVD Store's plan
(rows and row text per table with DVD Store 3's row counts, disk and time estimated from a
measured load) without writing anything, and a refusal (exit 2, one sentence) when the
database's file system or the CSV directory lacks the space. The "lacks space" cases use a
small tmpfs this test mounts when it may (root), and otherwise a computed comparison: L's
estimate against the free space of the test's own file system. Server cases (from
STOREBENCH_PG_URL / STOREBENCH_MYSQL_URL) check that the plan says what it can tell of the
server's space."""
import os
import re
import shutil
import subprocess
import unittest

import harness
from harness import storebench, tmp_path


def disk_bytes(stdout):
    """The plan's 'database on disk: about X GB|MB' in bytes."""
    m = re.search(r"database on disk: about ([0-9.]+) (GB|MB|kB)", stdout)
    assert m, stdout
    return float(m.group(1)) * {"GB": 1e9, "MB": 1e6, "kB": 1e3}[m.group(2)]


def rows(stdout, table):
    m = re.search(r"^%s\s+~?\s*(\d+)\s" % table, stdout, re.M)
    assert m, stdout
    return int(m.group(1))


class Tmpfs:
    """A tmpfs of `mb` MB mounted on a new directory, or None when this process may not mount."""

    def __init__(self, name, mb):
        self.path = os.path.abspath(tmp_path(name))
        shutil.rmtree(self.path, ignore_errors=True)
        os.makedirs(self.path)
        self.mounted = subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=%dm" % mb, "tmpfs", self.path],
            capture_output=True).returncode == 0

    def close(self):
        if self.mounted:
            subprocess.run(["umount", self.path], check=True)


class SqliteDryRunTest(unittest.TestCase):
    def setUp(self):
        self.dir = os.path.abspath(tmp_path("dry_run"))
        shutil.rmtree(self.dir, ignore_errors=True)
        os.makedirs(self.dir)
        self.db = os.path.join(self.dir, "ds.db")

    def assert_nothing_written(self, *paths):
        left = [p for p in paths if os.path.exists(p)]
        self.assertEqual(left, [], "--dry_run wrote files")
        self.assertEqual(os.listdir(self.dir), [])

    def test_plan_of_s_has_ds3_rows_and_writes_nothing(self):
        csv = os.path.join(self.dir, "csv")
        r = storebench("oltp", "load", "--db", "sqlite://" + self.db, "--db_size=S", "--dry_run",
                       "--csv_dir", csv)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        # DVD Store 3's S: 20 000 customers, 1 000 orders a month, 10 000 products.
        self.assertEqual(rows(r.stdout, "customers"), 20000)
        self.assertEqual(rows(r.stdout, "orders"), 12000)
        self.assertEqual(rows(r.stdout, "orderlines"), 60000)
        self.assertEqual(rows(r.stdout, "products"), 10000)
        self.assertEqual(rows(r.stdout, "reviews"), 200000)
        self.assertIn("CSV files (--csv_dir", r.stdout)
        self.assertIn("space for the database:", r.stdout)
        self.assertRegex(r.stdout, r"time: about \d+ s( to \d+ s)? on a machine like")
        self.assertGreater(disk_bytes(r.stdout), 100e6)
        self.assert_nothing_written(self.db, csv)

    def test_l_refused_when_the_file_system_lacks_its_space(self):
        r = storebench("oltp", "load", "--db", "sqlite://" + self.db, "--db_size=L", "--dry_run")
        self.assertEqual(rows(r.stdout, "customers"), 200000000)
        self.assertEqual(rows(r.stdout, "orders"), 120000000)
        self.assertEqual(rows(r.stdout, "products"), 1000000)
        st = os.statvfs(self.dir)
        free = st.f_bavail * st.f_frsize
        if disk_bytes(r.stdout) > free:
            self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
            self.assertIn("needs about", r.stderr)
            self.assertIn(self.dir, r.stderr)
        else:
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assert_nothing_written(self.db)

    def test_small_tmpfs_refuses_s(self):
        fs = Tmpfs("dry_run_tmpfs", 64)
        try:
            if not fs.mounted:
                self.skipTest("cannot mount a tmpfs here (not root)")
            db = os.path.join(fs.path, "ds.db")
            r = storebench("oltp", "load", "--db", "sqlite://" + db, "--db_size=S", "--dry_run")
            self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
            self.assertIn("the load needs about", r.stderr)
            self.assertRegex(r.stderr, r"which has 6\d\.\d MB")  # the 64 MiB tmpfs
            self.assertEqual(os.listdir(fs.path), [])
            # 1MB's database (about 29 MB) fits.
            r = storebench("oltp", "load", "--db", "sqlite://" + db, "--db_size=1MB",
                           "--dry_run")
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            self.assertEqual(os.listdir(fs.path), [])
        finally:
            fs.close()

    def test_small_tmpfs_refuses_the_csv_files(self):
        fs = Tmpfs("dry_run_csv_tmpfs", 8)
        try:
            if not fs.mounted:
                self.skipTest("cannot mount a tmpfs here (not root)")
            csv = os.path.join(fs.path, "csv")
            r = storebench("oltp", "load", "--db", "sqlite://" + self.db, "--db_size=S",
                           "--dry_run", "--csv_dir", csv)
            self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
            self.assertIn("the CSV files need about", r.stderr)
            self.assertEqual(os.listdir(fs.path), [])
            self.assert_nothing_written(self.db)
        finally:
            fs.close()

    def test_workload_without_a_plan_says_so(self):
        r = storebench("oltp", "load", "--workload", "tpcc", "--db", "sqlite://" + self.db,
                       "--dry_run")
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn("has no load plan", r.stderr)
        self.assert_nothing_written(self.db)


class ServerDryRunTest(unittest.TestCase):
    def check(self, env):
        url = harness.env_url(env)  # its own database: --dry_run writes nothing
        harness.require_server(self, url)
        r = storebench("oltp", "load", "--db", url, "--db_size=S", "--dry_run")
        self.assertIn(r.returncode, (0, 2), r.stdout + r.stderr)
        self.assertEqual(rows(r.stdout, "customers"), 20000)
        # The server is local here: either its data directory was measured or the plan says why
        # it could not be.
        self.assertRegex(r.stdout, r"space for the database: (\d+\.\d GB free in /|cannot tell \()")
        if r.returncode == 2:
            self.assertIn("needs about", r.stderr)

    def test_postgres(self):
        self.check("STOREBENCH_PG_URL")

    def test_mariadb(self):
        self.check("STOREBENCH_MYSQL_URL")


if __name__ == "__main__":
    harness.main()
