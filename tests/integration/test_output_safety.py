"""Issue #20, "nothing lost, nothing leaked": outputs never land on inputs or on each other,
default result names never collide, unwritable outputs and special input files are bad input
found before anything runs, console text from files is escaped, and load and io prepare stop
cleanly on SIGTERM. Runs use the noop workload on SQLite and the null I/O engine: short, and
nothing depends on speed."""
import glob
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
import unittest
import urllib.parse

sys.path.insert(0, os.path.dirname(__file__))
import harness  # noqa: E402

MIB = 1 << 20
# Output paths nobody can create files under, root included (/proc accepts no new files).
UNWRITABLE_DIR = "/proc"


def scratch(name):
    """An empty directory of its own under the build tree's test-tmp."""
    d = harness.tmp_path(os.path.join("output_safety", name))
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    return d


def sqlite_file(path):
    """A small SQLite database the noop workload can run against."""
    c = sqlite3.connect(path)
    c.execute("create table t (x integer)")
    c.execute("insert into t values (1)")
    c.commit()
    c.close()
    return path


def read(path):
    with open(path, "rb") as f:
        return f.read()


def noop_run(db, *args, **kw):
    return harness.storebench("oltp", "run", "--workload", "noop", "--db", "sqlite://" + db,
                              "--warmup_time", "0", "--run_time", "1s", "--progress", "none",
                              *args, **kw)


def null_io_run(target, *args, **kw):
    return harness.storebench("io", "run", "--engine", "null", "--target", target,
                              "--run_time", "1s", *args, **kw)


def wait_for(predicate, timeout, what):
    end = time.time() + timeout
    while time.time() < end:
        if predicate():
            return
        time.sleep(0.05)
    raise AssertionError("timed out waiting for " + what)


class TerminalEscapeTest(unittest.TestCase):
    """Item 10: bytes from DriverConfig lines and ICF specification names reach the console
    escaped, never as escape sequences."""

    ESC = "\x1b"

    def test_driver_config_values_and_bad_lines(self):
        d = scratch("escape_config")
        db = sqlite_file(os.path.join(d, "ds.db"))
        cfg = os.path.join(d, "DriverConfig.txt")
        with open(cfg, "w") as f:
            f.write("target=db\x1b]0;owned\x07host\n")
        p = noop_run(db, "--config_file", cfg, "--json", os.path.join(d, "r.json"))
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertNotIn(self.ESC, p.stderr + p.stdout)
        self.assertIn("target=db\\x1b]0;owned\\x07host", p.stderr)
        with open(cfg, "w") as f:
            f.write("\x1b[2J\x1b[31mnot a setting\n")
        p = noop_run(db, "--config_file", cfg)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertNotIn(self.ESC, p.stderr)
        self.assertIn("config line '\\x1b[2J\\x1b[31mnot a setting'", p.stderr)

    def test_icf_specification_names(self):
        d = scratch("escape_icf")
        with open(os.path.join(harness.ARGS.source, "tests/data/some.icf")) as f:
            text = f.read().replace("OLTP 8K 70% read random", "OLTP \x1b]0;owned\x07 8K")
        icf = os.path.join(d, "evil.icf")
        with open(icf, "w") as f:
            f.write(text)
        target = os.path.join(d, "t.bin")
        with open(target, "wb") as f:
            f.write(bytes(4 * MIB))
        p = null_io_run(target, "--icf", icf, "--ramp_time", "0s",
                        "--json", os.path.join(d, "r.json"))
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertNotIn(self.ESC, p.stdout + p.stderr)
        self.assertIn("OLTP \\x1b]0;owned\\x07 8K", p.stdout)
        # The JSON document keeps the name as written (JSON escapes it).
        with open(os.path.join(d, "r.json")) as f:
            names = [t["name"] for t in json.load(f)["storage"]]
        self.assertIn("OLTP \x1b]0;owned\x07 8K", names)


class SpecialInputFileTest(unittest.TestCase):
    """Item 9: a FIFO as target, ICF or config file blocked forever in open(); a directory as the
    config file exited 1. Both are bad input, refused at once."""

    def setUp(self):
        self.dir = scratch("special_inputs")
        self.fifo = os.path.join(self.dir, "fifo")
        os.mkfifo(self.fifo)
        self.db = sqlite_file(os.path.join(self.dir, "ds.db"))
        self.target = os.path.join(self.dir, "t.bin")
        with open(self.target, "wb") as f:
            f.write(bytes(4 * MIB))

    def check(self, p, words):
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn(words, p.stderr)

    def test_fifo_inputs(self):
        self.check(null_io_run(self.fifo, "--spec", "4KiB,100%read", timeout=20),
                   f"target '{self.fifo}' is a FIFO")
        self.check(null_io_run(self.target, "--icf", self.fifo, timeout=20),
                   f"the ICF file '{self.fifo}' cannot be read: it is a FIFO, not a regular file")
        self.check(noop_run(self.db, "--config_file", self.fifo, timeout=20),
                   f"config file '{self.fifo}' cannot be read: it is a FIFO")
        self.check(harness.storebench("io", "prepare", "--target", self.fifo, "--size", "1MiB",
                                      timeout=20), "is a FIFO")

    def test_directory_as_config_file(self):
        self.check(noop_run(self.db, f"--config_file={self.dir}"),
                   f"config file '{self.dir}' cannot be read: it is a directory")


class OutputOntoInputTest(unittest.TestCase):
    """Item 1: an output that is (or links to) an input or another output is refused, exit 2,
    before the run, with both paths named; the input keeps its bytes."""

    def test_oltp_run_outputs_onto_the_database(self):
        d = scratch("onto_db")
        db = sqlite_file(os.path.join(d, "ds.db"))
        os.symlink(db, os.path.join(d, "link.json"))
        os.link(db, os.path.join(d, "hard.json"))
        before = read(db)
        cases = [
            ("--json", db),
            ("--json", os.path.join(d, "link.json")),   # symbolic link
            ("--json", os.path.join(d, "hard.json")),   # hard link
            ("--json", os.path.join(d, ".", "ds.db")),  # another spelling
            ("--json", db + "-wal"),                     # SQLite's own file, not there yet
            ("--out_filename", db),
            ("--op_log", db),
        ]
        for option, path in cases:
            with self.subTest(option=option, path=path):
                p = noop_run(db, option, path)
                self.assertEqual(p.returncode, 2, p.stderr)
                self.assertIn(f"refusing to write {option} '{path}'", p.stderr)
                self.assertIn(f"the database", p.stderr)
                self.assertIn(db, p.stderr)
                self.assertNotIn("Final", p.stdout)
                self.assertEqual(read(db), before)
        self.assertFalse(os.path.exists(db + "-wal"))

    def test_oltp_run_output_onto_the_config_file(self):
        d = scratch("onto_config")
        db = sqlite_file(os.path.join(d, "ds.db"))
        cfg = os.path.join(d, "DriverConfig.txt")
        with open(cfg, "w") as f:
            f.write("n_threads=1\n")
        p = noop_run(db, "--config_file", cfg, "--out_filename", cfg)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn(f"it is the config file '{cfg}'", p.stderr)
        self.assertEqual(read(cfg), b"n_threads=1\n")

    def test_io_run_outputs_onto_the_target_and_each_other(self):
        d = scratch("onto_target")
        foreign = os.path.join(d, "foreign.bin")
        with open(foreign, "wb") as f:
            f.write(os.urandom(4 * MIB))
        before = read(foreign)
        for option in ("--csv", "--series_csv", "--json"):
            with self.subTest(option=option):
                p = null_io_run(foreign, "--spec", "4KiB,100%read", option, foreign)
                self.assertEqual(p.returncode, 2, p.stderr)
                self.assertIn(f"refusing to write {option} '{foreign}': it is the --target file",
                              p.stderr)
                self.assertEqual(read(foreign), before)
        csv = os.path.join(d, "r.csv")
        p = null_io_run(foreign, "--spec", "4KiB,100%read", "--csv", csv,
                        "--series_csv", os.path.join(d, ".", "r.csv"))
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("they are the same file", p.stderr)
        self.assertFalse(os.path.exists(csv))
        # /dev/null may take several outputs at once.
        p = null_io_run(foreign, "--spec", "4KiB,100%read", "--json", "/dev/null",
                        "--csv", "/dev/null", "--series_csv", "/dev/null")
        self.assertEqual(p.returncode, 0, p.stderr)


class UnwritableOutputTest(unittest.TestCase):
    """Item 3: an output that cannot be written is bad input found before the run."""

    def test_oltp_run(self):
        d = scratch("unwritable_oltp")
        db = sqlite_file(os.path.join(d, "ds.db"))
        for option, path in (("--json", UNWRITABLE_DIR + "/storebench-r.json"),
                             ("--json", UNWRITABLE_DIR + "/no/such/dir/r.json"),
                             ("--json", d),  # a directory
                             ("--op_log", os.path.join(d, "missing-dir", "ops.log"))):
            with self.subTest(option=option, path=path):
                p = noop_run(db, option, path)
                self.assertEqual(p.returncode, 2, p.stderr)
                self.assertIn(f"{option} '{path}' cannot be written", p.stderr)
                self.assertNotIn("Final", p.stdout)

    def test_io_run(self):
        d = scratch("unwritable_io")
        target = os.path.join(d, "t.bin")
        with open(target, "wb") as f:
            f.write(bytes(4 * MIB))
        for option in ("--json", "--csv", "--series_csv"):
            with self.subTest(option=option):
                path = UNWRITABLE_DIR + "/storebench-out"
                p = null_io_run(target, "--spec", "4KiB,100%read", option, path)
                self.assertEqual(p.returncode, 2, p.stderr)
                self.assertIn(f"{option} '{path}' cannot be written", p.stderr)
                self.assertNotIn("Av. Resp. Time ms", p.stdout)

    def test_default_result_directory(self):
        """No --json and a working directory that takes no results/ directory."""
        target = os.path.join(scratch("unwritable_default"), "t.bin")
        with open(target, "wb") as f:
            f.write(bytes(4 * MIB))
        p = null_io_run(target, "--spec", "4KiB,100%read", cwd=UNWRITABLE_DIR)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("the result file", p.stderr)
        self.assertIn("cannot be written", p.stderr)

    def test_load_csv_dir(self):
        """Item 12: --csv_dir where no file can be created: bad input before the load starts."""
        d = scratch("csv_dir")
        db = os.path.join(d, "ds.db")
        csv_dir = UNWRITABLE_DIR + "/storebench-csv"
        p = harness.storebench("oltp", "load", "--db", "sqlite://" + db, "--db_size=S",
                               "--csv_dir", csv_dir)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn(f"--csv_dir '{csv_dir}/", p.stderr)
        self.assertIn("cannot be written", p.stderr)
        self.assertFalse(os.path.exists(db), "the load began")


class DefaultResultNameTest(unittest.TestCase):
    """Item 2: default result names have one-second resolution; a name already taken (another
    run in the same second) gets a -2 suffix instead of being replaced."""

    def check(self, run, ext):
        d = scratch("default_name" + ext)
        os.makedirs(os.path.join(d, "results"))
        # Every name this run could pick, taken by "earlier runs".
        t0 = time.time()
        taken = {}
        for s in range(0, 60):
            stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(t0 + s))
            path = os.path.join(d, "results", stamp + ext)
            with open(path, "w") as f:
                f.write("an earlier run\n")
            taken[path] = stamp
        p = run(d)
        self.assertEqual(p.returncode, 0, p.stderr)
        for path in taken:
            self.assertEqual(read(path), b"an earlier run\n", path)
        new = sorted(set(glob.glob(os.path.join(d, "results", "*"))) - set(taken))
        self.assertEqual(len(new), 1, new)
        self.assertTrue(new[0].endswith("-2" + ext), new[0])
        self.assertIn(os.path.relpath(new[0], d), p.stderr)
        with open(new[0]) as f:
            self.assertIn("schema_version", json.load(f))

    def test_oltp_run(self):
        db = sqlite_file(os.path.join(scratch("default_name_db"), "ds.db"))
        self.check(lambda d: noop_run(db, cwd=d), ".json")

    def test_io_run(self):
        target = os.path.join(scratch("default_name_target"), "t.bin")
        with open(target, "wb") as f:
            f.write(bytes(4 * MIB))
        self.check(lambda d: null_io_run(target, "--spec", "4KiB,100%read", cwd=d), "-io.json")


class InterruptedPrepareTest(unittest.TestCase):
    """Item 9: io prepare stops cleanly on SIGTERM (130, a message); the interrupted file is then
    named as such (not "storebench did not create it") and io prepare redoes it."""

    def test_io_prepare_stops_on_sigterm_and_prepare_redoes_it(self):
        d = scratch("prepare_stop")
        target = os.path.join(d, "t.tst")
        # 64 GiB is sparse until filled; the signal comes long before that.
        prep = subprocess.Popen([harness.ARGS.binary, "io", "prepare", "--target", target,
                                 "--size", "64GiB", "--direct=N"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

        def preparing():
            try:
                with open(target, "rb") as f:
                    return b"state=preparing" in f.read(4096)
            except OSError:
                return False
        wait_for(preparing, 30, "the preparing marker")
        prep.send_signal(signal.SIGTERM)
        _, err = prep.communicate(timeout=60)
        self.assertEqual(prep.returncode, 130, err)
        self.assertIn("stopped by a signal", err)
        self.assertIn("state=preparing", err)

        p = harness.storebench("io", "run", "--engine", "psync", "--direct=N", "--target",
                               target, "--spec", "4KiB,100%write", "--run_time", "1s")
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("was interrupted", p.stderr)
        self.assertNotIn("did not create it", p.stderr)

        p = harness.storebench("io", "prepare", "--target", target, "--size", "4MiB",
                               "--direct=N")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("interrupted", p.stderr)
        self.assertEqual(os.path.getsize(target), 5 * MIB)
        p = harness.storebench("io", "run", "--engine", "psync", "--direct=N", "--target",
                               target, "--spec", "4KiB,100%write", "--run_time", "1s",
                               "--json", os.path.join(d, "r.json"))
        self.assertEqual(p.returncode, 0, p.stderr)


class LoadStopTest(unittest.TestCase):
    """Item 12: load stops cleanly on SIGTERM with a message and exit 130, and the unfinished
    database is reported as such."""

    def test_load_stops_on_sigterm(self):
        d = scratch("load_stop")
        db = os.path.join(d, "big.db")
        load = subprocess.Popen([harness.ARGS.binary, "oltp", "load", "--workload", "oltp",
                                 "--db", "sqlite://" + db, "--tables", "1",
                                 "--table_size", "100000000"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        wait_for(lambda: os.path.exists(db) and os.path.getsize(db) > 0, 30, "the database")
        time.sleep(1)
        self.assertIsNone(load.poll(), "the load ended before the signal")
        load.send_signal(signal.SIGTERM)
        _, err = load.communicate(timeout=120)
        self.assertEqual(load.returncode, 130, err)
        last = err.strip().splitlines()[-1]
        self.assertTrue(last.startswith("storebench: load stopped by a signal"), err)
        # The unfinished database is reported as such, not used.
        p = harness.storebench("oltp", "run", "--workload", "oltp", "--db", "sqlite://" + db,
                               "--tables", "1", "--table_size", "100000000", "--run_time", "1s",
                               "--warmup_time", "0")
        self.assertEqual(p.returncode, 2, p.stderr)


MYSQL_URL = harness.server_url("STOREBENCH_MYSQL_URL", "sbtest_fault_load")


class ServerLostDuringLoadTest(unittest.TestCase):
    """Item 12: a server lost in the middle of a load is a failed load (1), not bad input (2).
    The connections are killed with KILL CONNECTION from a client of the same user, so the
    server itself keeps running for everyone else. Uses MariaDB's sbtest_fault_load database
    (the PostgreSQL fault test uses PostgreSQL's)."""

    def mysql(self, sql):
        u = urllib.parse.urlsplit(MYSQL_URL)
        return subprocess.run(["mysql", "-h", u.hostname, "-P", str(u.port), "-u", u.username,
                               "-N", "-B", "-e", sql], capture_output=True, text=True, timeout=60)

    def test_connection_killed_during_load_exits_1(self):
        harness.require_server(self, MYSQL_URL)
        if shutil.which("mysql") is None:
            self.skipTest("no mysql client")
        r = self.mysql("CREATE DATABASE IF NOT EXISTS sbtest_fault_load")
        self.assertEqual(r.returncode, 0, r.stderr)
        load = subprocess.Popen([harness.ARGS.binary, "oltp", "load", "--db", MYSQL_URL,
                                 "--db_size=S", "--force"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        ids = []

        def loading():
            nonlocal ids
            r = self.mysql("SELECT id FROM information_schema.processlist "
                           "WHERE db = 'sbtest_fault_load' AND user = 'storebench' "
                           "AND id <> CONNECTION_ID()")
            ids = r.stdout.split()
            return len(ids) >= 2  # the load's own connection and a bulk writer
        wait_for(loading, 60, "the load's connections")
        time.sleep(1)
        self.assertIsNone(load.poll(), "the load finished before its connections were killed")
        # Killed again until the load ends: writers that connect after the first round would
        # otherwise load the rest of S before the load notices (up to two minutes here).
        deadline = time.monotonic() + 120
        while load.poll() is None and time.monotonic() < deadline:
            for i in ids:
                self.mysql(f"KILL CONNECTION {i}")
            time.sleep(0.2)
            loading()
        _, err = load.communicate(timeout=120)
        self.assertEqual(load.returncode, 1, err)
        last = err.strip().splitlines()[-1]
        self.assertTrue(last.startswith("storebench: "), err)
        # It is redone with --force (at 1MB: any load over the unfinished database shows that;
        # S's 4.5 million rows took the server most of this file's time).
        p = harness.storebench("oltp", "load", "--db", MYSQL_URL, "--db_size=1MB", "--force")
        self.assertEqual(p.returncode, 0, p.stderr)


if __name__ == "__main__":
    harness.main()
