"""Issue #20 item 13: two storebench processes on one database or storage target.

A load, run or verify locks its database, and io prepare / writing runs / write verification lock
their targets; a second process is refused at once (exit 2) with a sentence naming the holder's
pid, and the first goes on undisturbed. The PostgreSQL and MariaDB cases use the servers'
sbtest_dvd database (ctest runs this test and the other sbtest_dvd tests one at a time); without
a reachable server they skip, unless STOREBENCH_REQUIRE_SERVICES=1.
"""
import contextlib
import os
import shutil
import sqlite3
import signal
import subprocess
import time
import unittest
import urllib.parse

import harness

PG_URL = harness.server_url("STOREBENCH_PG_URL", "sbtest_dvd")
MYSQL_URL = harness.server_url("STOREBENCH_MYSQL_URL", "sbtest_dvd")


def start(*args):
    return subprocess.Popen([harness.ARGS.binary, *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def wait_for(predicate, seconds, what):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.1)
    raise AssertionError("timed out waiting for " + what)


def remove(*paths):
    for p in paths:
        for suffix in ("", "-wal", "-shm", "-journal", ".storebench-lock"):
            try:
                os.remove(p + suffix)
            except FileNotFoundError:
                pass


class Background:
    """A storebench process in the background, stopped (SIGINT, then SIGKILL) when the test ends."""

    def __init__(self, test, *args):
        self.proc = start(*args)
        test.addCleanup(self.stop)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.communicate(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.communicate()

    @contextlib.contextmanager
    def paused(self):
        """SIGSTOP for the checks, SIGCONT after: the process keeps its locks and stays in the
        middle of its work however long the checks take on a loaded machine, so a small
        database's load of a second or two is still running when they end."""
        self.proc.send_signal(signal.SIGSTOP)
        try:
            yield
        finally:
            self.proc.send_signal(signal.SIGCONT)

    def finish(self, timeout=300):
        out, err = self.proc.communicate(timeout=timeout)
        return self.proc.returncode, out, err


class Refusals:
    def assertRefusedBy(self, p, holder_pid, command):
        """Exit 2 with one sentence naming the holder's command and pid, at once."""
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn(f"is in use by storebench {command} (pid {holder_pid} on host ", p.stderr)
        self.assertIn("wait for it or stop it", p.stderr)
        self.assertNotIn("--force", p.stderr)


class DatabaseLoadLock(Refusals):
    """A DVD Store load; load --force, run and verify meanwhile are refused; the load finishes
    and verifies."""

    url = None
    # Small: the load is paused (SIGSTOP) while the refusals are checked, so it need not be
    # long enough to outlast them; it must only still run when the pause begins (its lock is
    # seen at once, and a 1MB load on a server takes seconds after it).
    size = "1MB"

    def load_is_locking(self, load_pid):
        """Asks without taking the lock (a storebench probe would take it and refuse the load)."""
        raise NotImplementedError

    def check_load_is_protected(self, extra_load_args=()):
        size = "--db_size=" + self.size
        load = Background(self, "oltp", "load", "--db", self.url, size, "--load_threads=2",
                          *extra_load_args)
        pid = load.proc.pid
        wait_for(lambda: self.load_is_locking(pid) or load.proc.poll() is not None, 60,
                 "the load to take its lock")
        if load.proc.poll() is not None:
            self.fail("the load ended before the checks: " + "".join(load.finish()[1:]))
        with load.paused():
            t0 = time.monotonic()
            p = harness.storebench("oltp", "load", "--db", self.url, size, "--force", timeout=60)
            self.assertRefusedBy(p, pid, "oltp load")
            p = harness.storebench("oltp", "run", "--db", self.url, size, "--run_time=1s",
                                   "--warmup_time=0", "--json", harness.tmp_path("conc-run.json"),
                                   timeout=60)
            self.assertRefusedBy(p, pid, "oltp load")
            p = harness.storebench("oltp", "verify", "--db", self.url, size, timeout=60)
            self.assertRefusedBy(p, pid, "oltp load")
            self.assertLess(time.monotonic() - t0, 30, "the refusals must not wait for the lock")
            self.assertIsNone(load.proc.poll(),
                              "the load ended before the checks did: inconclusive")
        rc, _, err = load.finish()
        self.assertEqual(rc, 0, err)
        p = harness.storebench("oltp", "verify", "--db", self.url, size, timeout=120)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)


class SqliteLoadLockTest(DatabaseLoadLock, unittest.TestCase):
    # 2MB: an SQLite load of 1MB took 1.3 s in all, little beyond the 0.1-s polls for its lock.
    size = "2MB"

    def setUp(self):
        self.db = harness.tmp_path("conc-load.db")
        remove(self.db)
        self.addCleanup(remove, self.db)
        self.url = "sqlite://" + self.db

    def load_is_locking(self, load_pid):
        try:
            with open(self.db + ".storebench-lock") as f:
                return f"(pid {load_pid} " in f.read()
        except FileNotFoundError:
            return False

    def test_load_refuses_second_load_run_and_verify(self):
        self.check_load_is_protected()
        self.assertFalse(os.path.exists(self.db + ".storebench-lock"), "the lock file stays")


def client(program, args):
    if shutil.which(program) is None:
        raise unittest.SkipTest("no " + program + " client")
    return subprocess.run([program, *args], capture_output=True, text=True, timeout=60).stdout


class PostgresLoadLockTest(DatabaseLoadLock, unittest.TestCase):
    url = PG_URL

    def load_is_locking(self, load_pid):
        u = urllib.parse.urlsplit(self.url)
        return client("psql", [
            "-h", u.hostname, "-p", str(u.port), "-U", u.username, "-d", u.path[1:], "-Atc",
            "SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
            "WHERE l.locktype = 'advisory' AND l.granted AND a.application_name LIKE "
            f"'storebench oltp load (pid {load_pid} %'"]).strip() == "1"

    def test_load_refuses_second_load_run_and_verify(self):
        harness.require_server(self, self.url)
        self.check_load_is_protected(["--force"])


class MariadbLoadLockTest(DatabaseLoadLock, unittest.TestCase):
    url = MYSQL_URL

    def load_is_locking(self, load_pid):
        u = urllib.parse.urlsplit(self.url)
        return f"(pid {load_pid} " in client("mysql", [
            "-h", u.hostname, "-P", str(u.port), "-u", u.username, "-N", "-B", "-e",
            "SELECT INFO FROM information_schema.PROCESSLIST WHERE ID = (SELECT "
            f"IS_USED_LOCK('storebench.{u.path[1:]}')) OR INFO LIKE '%storebench_lock_holder%'"])

    def test_load_refuses_second_load_run_and_verify(self):
        harness.require_server(self, self.url)
        self.check_load_is_protected(["--force"])


class SqliteRunLockTest(Refusals, unittest.TestCase):
    """Two runs on one SQLite database would count each other's orders: the second is refused
    and the first passes its verification (committed_orders_match)."""

    def test_second_run_is_refused(self):
        db = harness.tmp_path("conc-run.db")
        remove(db)
        self.addCleanup(remove, db)
        url = "sqlite://" + db
        # The smallest database: the first run's orders and their verification are the point,
        # not its size (S took 16 s to load).
        p = harness.storebench("oltp", "load", "--db", url, "--db_size=1MB", "--load_threads=2")
        self.assertEqual(p.returncode, 0, p.stderr)
        # 3 s: the lock is taken before the workers connect, and the second run's refusal takes
        # a fraction of a second; the first run is not paused, it must verify as it ran.
        first = Background(self, "oltp", "run", "--db", url, "--db_size=1MB", "--run_time=3s",
                           "--warmup_time=0", "--n_threads=2", "--json",
                           harness.tmp_path("conc-run1.json"))
        wait_for(lambda: os.path.exists(db + ".storebench-lock") or first.proc.poll() is not None,
                 30, "the first run to take its lock")
        p = harness.storebench("oltp", "run", "--db", url, "--db_size=1MB", "--run_time=2s",
                               "--warmup_time=0", "--json", harness.tmp_path("conc-run2.json"),
                               timeout=60)
        self.assertIsNone(first.proc.poll(), "the first run ended before the second started")
        self.assertRefusedBy(p, first.proc.pid, "oltp run")
        rc, out, err = first.finish()
        self.assertEqual(rc, 0, out + err)
        self.assertNotIn("FAIL", out)

    def test_one_database_twice_in_a_run_or_plan_is_refused(self):
        db = harness.tmp_path("conc-twice.db")
        remove(db)
        self.addCleanup(remove, db)
        url = "sqlite://" + db
        p = harness.storebench("oltp", "load", "--db", url, "--workload=oltp", "--tables=1",
                               "--table_size=100")
        self.assertEqual(p.returncode, 0, p.stderr)
        p = harness.storebench("oltp", "run", "--workload=oltp", "--db", url + ";" + url,
                               "--tables=1", "--table_size=100", "--n_threads=2",
                               "--run_time=1s", "--warmup_time=0")
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("twice", p.stderr)
        plan = harness.tmp_path("conc-twice.toml")
        with open(plan, "w") as f:
            f.write('[run]\nrun_time = "1s"\nwarmup_time = "0s"\n\n'
                    '[[group]]\nname = "a"\nworkload = "oltp"\n'
                    f'db = "{url}"\ncount = 2\n[group.options]\ntables = 1\n'
                    'table_size = 100\n')
        self.addCleanup(os.remove, plan)
        p = harness.storebench("run", "--plan", plan, "--json", harness.tmp_path("conc-p.json"))
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn(plan + ":5:", p.stderr)
        self.assertIn("instance a_2 names the database", p.stderr)


class SqliteLinkLockTest(Refusals, unittest.TestCase):
    """The SQLite lock is the real file's: a load --force through a symbolic link to a database
    a run uses is refused (it used to lock "<link>.storebench-lock", succeed and drop the run's
    tables), and a database file with a second hard link is refused outright."""

    def setUp(self):
        self.db = harness.tmp_path("conc-link.db")
        links = harness.tmp_path("conc-links")
        os.makedirs(links, exist_ok=True)
        self.symlink = os.path.join(links, "other-name.db")
        self.hardlink = harness.tmp_path("conc-link-hard.db")
        remove(self.db, self.symlink, self.hardlink)
        self.addCleanup(remove, self.db, self.symlink, self.hardlink)
        p = harness.storebench("oltp", "load", "--db", "sqlite://" + self.db, "--workload=oltp",
                               "--tables=1", "--table_size=100")
        self.assertEqual(p.returncode, 0, p.stderr)
        os.symlink(self.db, self.symlink)

    def tables(self):
        db = sqlite3.connect(f"file:{self.db}?mode=ro", uri=True)
        try:
            return {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        finally:
            db.close()

    def test_load_through_a_link_while_a_run_holds_the_lock_is_refused(self):
        before = self.tables()
        self.assertIn("sbtest1", before)
        run = Background(self, "oltp", "run", "--db", "sqlite://" + self.db, "--workload=oltp",
                         "--tables=1", "--table_size=100", "--run_time=60s", "--warmup_time=0",
                         "--json", harness.tmp_path("conc-link-run.json"))
        wait_for(lambda: os.path.exists(self.db + ".storebench-lock") or
                 run.proc.poll() is not None, 30, "the run to take its lock")
        self.assertIsNone(run.proc.poll(), "the run ended before the checks")
        p = harness.storebench("oltp", "load", "--db", "sqlite://" + self.symlink,
                               "--workload=oltp", "--tables=1", "--table_size=100", "--force",
                               timeout=60)
        self.assertRefusedBy(p, run.proc.pid, "oltp run")
        self.assertFalse(os.path.exists(self.symlink + ".storebench-lock"))
        # A second hard link: refused whoever holds the lock (a name storebench cannot resolve).
        os.link(self.db, self.hardlink)
        p = harness.storebench("oltp", "load", "--db", "sqlite://" + self.hardlink,
                               "--workload=oltp", "--tables=1", "--table_size=100", "--force",
                               timeout=60)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn(f"database file '{self.hardlink}' has 2 hard links", p.stderr)
        self.assertNotIn("--force", p.stderr)
        self.assertIsNone(run.proc.poll(), "the run ended before the checks did: inconclusive")
        self.assertEqual(self.tables(), before)
        os.remove(self.hardlink)


class StorageLockTest(Refusals, unittest.TestCase):
    """io prepare, writing runs and write verification hold their target alone; read-only runs
    share it with each other."""

    def setUp(self):
        self.target = harness.tmp_path("conc-io.tst")
        remove(self.target)
        self.addCleanup(remove, self.target)

    def held_by(self, pid):
        """True when /proc/locks shows an flock of `pid` on the target."""
        st = os.stat(self.target)
        dev = f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}"
        with open("/proc/locks") as f:
            return any(f" {pid} {dev} " in line for line in f if "FLOCK" in line)

    def io(self, *args):
        return harness.storebench("io", *args, "--target", self.target, timeout=120)

    def test_second_prepare_is_refused(self):
        # A size far beyond what fills in the test's time; it is stopped once checked.
        first = Background(self, "io", "prepare", "--target", self.target, "--size=64GiB",
                           "--direct=N")
        wait_for(lambda: os.path.exists(self.target) and self.held_by(first.proc.pid), 30,
                 "the first prepare to lock its file")
        p = self.io("prepare", "--size=1GiB")
        self.assertRefusedBy(p, first.proc.pid, "io prepare")
        p = self.io("run", "--spec", "4KiB,100%read,100%random", "--run_time=1s", "--engine=psync",
                    "--direct=N", "--json", harness.tmp_path("conc-io.json"))
        self.assertRefusedBy(p, first.proc.pid, "io prepare")
        self.assertIsNone(first.proc.poll(), "the prepare ended before the checks did")
        first.stop()

    def test_writers_exclude_everyone_and_readers_share(self):
        p = self.io("prepare", "--size=16MiB", "--direct=N")
        self.assertEqual(p.returncode, 0, p.stderr)
        read = ["run", "--spec", "4KiB,100%read,100%random", "--engine=psync", "--direct=N"]
        # 4 s: a second reader's 1-s run and two refusals happen within it.
        reader = Background(self, "io", *read, "--run_time=4s", "--target", self.target,
                            "--json", harness.tmp_path("conc-io-r1.json"))
        wait_for(lambda: self.held_by(reader.proc.pid), 30, "the reader to lock the file")
        # Paused, the reader keeps its lock however long the checks take on a slow machine.
        with reader.paused():
            p = self.io(*read, "--run_time=1s", "--json", harness.tmp_path("conc-io-r2.json"))
            self.assertEqual(p.returncode, 0, p.stderr)  # readers share
            p = self.io("run", "--spec", "4KiB,0%read,100%random", "--engine=psync",
                        "--direct=N", "--run_time=1s", "--json",
                        harness.tmp_path("conc-io-w.json"))
            self.assertRefusedBy(p, reader.proc.pid, "io run")
            p = self.io("verify", "--verify_phase=write", "--engine=psync", "--direct=N")
            self.assertRefusedBy(p, reader.proc.pid, "io run")
            self.assertIsNone(reader.proc.poll(), "the reader ended before the checks did")
        rc, _, err = reader.finish()
        self.assertEqual(rc, 0, err)
        # Free again: the write verification runs.
        p = self.io("verify", "--verify_phase=both", "--engine=psync", "--direct=N")
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)


if __name__ == "__main__":
    harness.main()
