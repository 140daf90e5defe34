"""Repeated stop signals do not lose the result (README: Exit status; docs/measurement.md:
Stopping a run). Supervisors send one stop as two signals: GNU timeout signals its command and
then its process group, which holds the command. The first SIGINT/SIGTERM stops gracefully, the
second is only noted, the third (or SIGQUIT) stops at once and still writes the result gathered
so far (verification skipped), and only a fourth exits without writing.

Every case runs the real binary on real SQLite files of about 1 MB (or the null I/O engine on a
1 MiB prepared file), with `timeout` and with `kill` in a row, for oltp run, io run, run --plan,
consolidate and oltp load. Nothing waits on a clock: each step waits for a line in the output or
a state it can read. Where a second or third signal must arrive while the command is still
stopping, a SQLite write lock held by the test keeps a worker waiting in its statement (a whole
interval with 0 transactions shows it is), so the signals are delivered one by one before the
command can end; the lock is let go once they were seen. The classes run side by side, each on
its own files (ClassesSideBySide), their cases one after another."""
import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import threading
import time
import types
import unittest

import jsonschema

import harness
from harness import storebench, tmp_path

FIRST = "stopping; the result so far is still written (another signal is only noted"
FIRST_LOAD = "SIGTERM: stopping (another signal is only noted"  # a load writes no result
SECOND = "again: still stopping"
AT_ONCE = "stopping at once: checks still to come are skipped; the result so far is still written"
EXIT_NOW = "exiting at once; nothing more is written"
VERIFY_SKIPPED = "verification was skipped: a signal asked to stop at once"
CHECK_SKIPPED = "the server cross-check was skipped: a signal asked to stop at once"
ROWS = 5000  # one oltp table of 5,000 rows: about 1 MB
TPS = re.compile(r"\] thds: \d+ tps: (\d+\.\d+) ")  # a status line's transactions a second


def fresh_dir(name):
    d = tmp_path(os.path.join("repeated_signals", name))
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    return d


def wait_for(predicate, what, timeout=120):
    """Polls `predicate` (a condition, not a duration); `timeout` only bounds a hung test."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return
        time.sleep(0.02)
    raise AssertionError("timed out waiting for " + what)


class Proc:
    """A storebench process (or `timeout` running one) whose output lines are collected as they
    come, so a test can wait for a line while the process runs."""

    def __init__(self, test, args, prefix=(), on_line=None):
        self.on_line = on_line  # called on the reader's thread with each line, as it comes
        self.proc = subprocess.Popen([*prefix, harness.ARGS.binary, *args],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.lines = []
        self.mu = threading.Lock()
        self.readers = [threading.Thread(target=self._read, args=(s,), daemon=True)
                        for s in (self.proc.stdout, self.proc.stderr)]
        for r in self.readers:
            r.start()
        test.addCleanup(self._kill)

    def _read(self, stream):
        for line in stream:
            if self.on_line:
                self.on_line(self, line)
            with self.mu:
                self.lines.append(line)

    def _kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        for r in self.readers:
            r.join()
        self.proc.stdout.close()
        self.proc.stderr.close()

    def count(self, text):
        with self.mu:
            return sum(text in line for line in self.lines)

    def output(self):
        with self.mu:
            return "".join(self.lines)

    def wait_line(self, text, n=1):
        """Waits until `text` appeared in `n` lines; fails when the process ends first."""
        def seen():
            if self.count(text) >= n:
                return True
            if self.proc.poll() is not None:
                for r in self.readers:
                    r.join()
                if self.count(text) >= n:
                    return True
                raise AssertionError(f"exited {self.proc.returncode} before {text!r}:\n" +
                                     self.output())
            return False
        wait_for(seen, repr(text))

    def signal(self, sig):
        self.proc.send_signal(sig)

    def finish(self):
        self.proc.wait(timeout=300)
        for r in self.readers:
            r.join()
        return self.proc.returncode


class WriteLock:
    """A write lock on a SQLite database (BEGIN EXCLUSIVE: in WAL mode every writer waits for
    it, readers do not), held until release()."""

    def __init__(self, path):
        # Released on the test's thread, perhaps taken on a reader's (HoldAtStart).
        self.conn = sqlite3.connect(path, timeout=60, isolation_level=None,
                                    check_same_thread=False)
        self.conn.execute("BEGIN EXCLUSIVE")

    def release(self):
        if self.conn is not None:
            self.conn.execute("ROLLBACK")
            self.conn.close()
            self.conn = None


def load_oltp(db, rows=ROWS):
    r = storebench("oltp", "load", "--workload", "oltp", "--db", "sqlite://" + db, "--tables",
                   "1", "--table_size", str(rows), "--force")
    assert r.returncode == 0, r.stderr


class HoldAtStart:
    """A Proc's on_line: takes the write locks of `dbs` as the header's "Initializing worker
    threads..." is read, before the workers' first transaction (the command's own writes, its
    lock and meta rows, are done by then), so the run's first one-second interval has no
    transaction and hold_workers returns at 1 s, not 2 (a lock taken after the start lets that
    interval count some). Should the lock come late, a later whole interval shows it. Only for
    cases that need no transaction before the stop."""

    def __init__(self, dbs):
        self.dbs = dbs
        self.locks = None
        self.zero_before = 0

    def __call__(self, proc, line):
        if self.locks is None and "Initializing worker threads..." in line:
            self.zero_before = proc.count("tps: 0.00 ")
            self.locks = [WriteLock(db) for db in self.dbs]


def wait_started(test, proc):
    proc.wait_line("Threads started!")
    held = proc.on_line
    if held is not None:
        test.assertIsNotNone(held.locks, "the header came before the start")
        for lock in held.locks:
            test.addCleanup(lock.release)


def hold_workers(test, proc, dbs):
    """Takes the write lock of every database in `dbs` while `proc` runs its oltp workers (or
    uses those its HoldAtStart took), and returns once a whole one-second interval ended with
    no transaction: every worker then waits in a statement for the lock, and the run cannot end
    before release()."""
    held = proc.on_line
    if held is not None:
        proc.wait_line("tps: 0.00 ", held.zero_before + 1)
        return held.locks
    # A second with transactions first: the stop must find some (assertAtOnce), also when a
    # busy machine (the other classes' runs beside this one) starts the workers late.
    wait_for(lambda: proc.proc.poll() is not None or
             any(float(tps) > 0 for tps in TPS.findall(proc.output())), "a second's transactions")
    locks = [WriteLock(db) for db in dbs]
    for lock in locks:
        test.addCleanup(lock.release)
    zero = proc.count("tps: 0.00 ")
    proc.wait_line("tps: 0.00 ", zero + 1)
    return locks


def send_in_turn(proc, sig, notes):
    """Sends `sig` once per note, each after the previous one's note appeared (so none merge
    with the next: the kernel keeps one pending signal of a kind)."""
    for note in notes:
        proc.signal(sig)
        proc.wait_line(note)


def timeout_expires(proc):
    """Makes `timeout` act as at its expiry now: SIGALRM is the signal its own timer raises
    (coreutils timeout.c), on which it sends SIGTERM to the command and then to its process
    group, which holds the command."""
    os.kill(proc.proc.pid, signal.SIGALRM)


def delivered_together(proc, sigs):
    """Stops the process (SIGSTOP), sends every signal of `sigs` (different kinds: the kernel
    keeps one pending signal of a kind) and waits until each is pending, then lets it go on: the
    signals are then handled one right after the other, before the process runs again."""
    pid = proc.proc.pid
    os.kill(pid, signal.SIGSTOP)

    def status(key):
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(key + ":"):
                    return line.split(":", 1)[1].strip()
        return ""
    wait_for(lambda: status("State").startswith("T"), "the process to stop")
    for sig in sigs:
        os.kill(pid, sig)
        wait_for(lambda: int(status("ShdPnd"), 16) & (1 << (sig - 1)), f"signal {sig} pending")
    os.kill(pid, signal.SIGCONT)


class SignalTestBase(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with open(os.path.join(harness.ARGS.source, "docs", "output-schema.json")) as f:
            cls.schema = json.load(f)

    def result(self, path):
        self.assertTrue(os.path.exists(path), "no result written")
        with open(path) as f:
            doc = json.load(f)
        jsonschema.validate(doc, self.schema)
        self.assertTrue(doc["interrupted"])
        return doc

    def assertVerified(self, doc):
        self.assertTrue(doc["verify"], "verification ran")
        self.assertTrue(all(c["passed"] for c in doc["verify"]), doc["verify"])
        self.assertFalse(any(VERIFY_SKIPPED in w for w in doc["warnings"]), doc["warnings"])

    def assertAtOnce(self, doc):
        self.assertEqual(doc["verify"], [])
        self.assertTrue(any(VERIFY_SKIPPED in w for w in doc["warnings"]), doc["warnings"])
        self.assertTrue(any(CHECK_SKIPPED in w for w in doc["warnings"]), doc["warnings"])
        self.assertNotIn("server_check", doc)
        self.assertGreater(doc["operations"][0]["count"], 0)


class OltpRunTest(SignalTestBase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.dir = fresh_dir("oltp_run")
        cls.db = os.path.join(cls.dir, "o.db")
        load_oltp(cls.db)

    def start(self, out, prefix=(), hold=()):
        if os.path.exists(out):
            os.remove(out)
        p = Proc(self, ["oltp", "run", "--workload", "oltp", "--db", "sqlite://" + self.db,
                        "--tables", "1", "--table_size", str(ROWS), "--warmup_time", "0",
                        "--run_time", "10m", "--report-interval", "1", "--json", out], prefix,
                 HoldAtStart(hold) if hold else None)
        wait_started(self, p)
        return p

    def test_timeout_writes_the_result(self):
        out = os.path.join(self.dir, "timeout.json")
        p = self.start(out, prefix=["timeout", "--preserve-status", "10m"])
        timeout_expires(p)
        self.assertEqual(p.finish(), 130, p.output())
        self.assertVerified(self.result(out))
        self.assertIn(FIRST, p.output())

    def test_second_term_is_noted_and_the_run_stops_gracefully(self):
        out = os.path.join(self.dir, "two.json")
        p = self.start(out, hold=[self.db])
        locks = hold_workers(self, p, [self.db])
        send_in_turn(p, signal.SIGTERM, [FIRST, SECOND])
        self.assertIsNone(p.proc.poll())
        locks[0].release()
        self.assertEqual(p.finish(), 130, p.output())
        self.assertNotIn(AT_ONCE, p.output())
        self.assertVerified(self.result(out))

    def test_third_term_stops_at_once_and_writes_the_result(self):
        out = os.path.join(self.dir, "three.json")
        p = self.start(out)
        locks = hold_workers(self, p, [self.db])
        send_in_turn(p, signal.SIGTERM, [FIRST, SECOND, AT_ONCE])
        locks[0].release()
        self.assertEqual(p.finish(), 130, p.output())
        doc = self.result(out)
        self.assertAtOnce(doc)
        self.assertIn("result written to " + out, p.output())

    def test_sigquit_stops_at_once_and_writes_the_result(self):
        out = os.path.join(self.dir, "quit.json")
        p = self.start(out)
        locks = hold_workers(self, p, [self.db])
        send_in_turn(p, signal.SIGQUIT, [AT_ONCE])
        locks[0].release()
        self.assertEqual(p.finish(), 130, p.output())
        self.assertAtOnce(self.result(out))

    def test_fourth_signal_exits_without_the_result(self):
        # The worker still waits for the lock: only an exit without finishing can end it now.
        out = os.path.join(self.dir, "four.json")
        p = self.start(out, hold=[self.db])
        hold_workers(self, p, [self.db])
        send_in_turn(p, signal.SIGINT, [FIRST, SECOND, AT_ONCE])
        p.signal(signal.SIGINT)
        self.assertEqual(p.finish(), 130, p.output())
        self.assertIn(EXIT_NOW, p.output())
        self.assertFalse(os.path.exists(out))


class IoRunTest(SignalTestBase):
    """The four cases' runs start together in setUpClass and wait for their first second side
    by side (a read-only run shares its target), instead of a second each in turn; each case
    then signals its own. At 1,000 I/Os a second (open loop) a waiting run takes no core."""
    RUNS = {"timeout": ["timeout", "--preserve-status", "10m"], "two": [], "together": [],
            "quit": []}

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.dir = fresh_dir("io_run")
        cls.target = os.path.join(cls.dir, "t.tst")
        r = storebench("io", "prepare", "--target", cls.target, "--size", "1MiB", "--direct=N")
        assert r.returncode == 0, r.stderr
        # Proc ends its process at cleanup: here the class's.
        owner = types.SimpleNamespace(addCleanup=cls.addClassCleanup)
        cls.runs = {}
        for name, prefix in cls.RUNS.items():
            out = os.path.join(cls.dir, name + ".json")
            if os.path.exists(out):
                os.remove(out)
            cls.runs[name] = (Proc(owner, [
                "io", "run", "--engine", "null", "--target", cls.target, "--spec",
                "4KiB,100%read,100%random", "--rate", "1000", "--run_time", "10m", "--progress",
                "json", "--json", out], prefix), out)
        for p, _ in cls.runs.values():
            p.wait_line('{"t":')  # the first second's figures: I/Os were done

    def start(self, name):
        return self.runs[name]

    def check(self, p, out):
        self.assertEqual(p.finish(), 130, p.output())
        doc = self.result(out)
        self.assertTrue(doc["storage"][0]["interrupted"])
        self.assertGreater(doc["storage"][0]["totals"]["read_ios"], 0)

    def test_timeout_writes_the_result(self):
        p, out = self.start("timeout")
        timeout_expires(p)
        self.check(p, out)

    def test_two_terms_in_a_row(self):
        p, out = self.start("two")
        p.signal(signal.SIGTERM)
        p.signal(signal.SIGTERM)
        self.check(p, out)

    def test_two_signals_delivered_together(self):
        # Both handled before the run goes on: the second is surely seen while it stops.
        p, out = self.start("together")
        delivered_together(p, [signal.SIGINT, signal.SIGTERM])
        self.check(p, out)
        self.assertIn(SECOND, p.output())

    def test_sigquit_writes_the_result(self):
        p, out = self.start("quit")
        p.signal(signal.SIGQUIT)
        self.check(p, out)
        self.assertIn(AT_ONCE, p.output())


PLAN = """
[run]
warmup_time = "0s"
run_time = "10m"
log_freq = 1
baseline = "tps>=1@run"

[[group]]
name = "o"
count = 2
workload = "oltp"
db = "sqlite://{dir}/o_{{i}}.db"
scale = true
[group.options]
tables = 1
table_size = {rows}
"""


class TwoInstancePlanBase(SignalTestBase):
    """Two loaded oltp SQLite databases in a fresh directory (DIR_NAME) and a plan of both."""
    DIR_NAME = ""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.dir = fresh_dir(cls.DIR_NAME)
        cls.dbs = [os.path.join(cls.dir, f"o_{i}.db") for i in (1, 2)]
        for db in cls.dbs:
            load_oltp(db)
        cls.plan = os.path.join(cls.dir, "plan.toml")
        with open(cls.plan, "w") as f:
            f.write(PLAN.format(dir=cls.dir, rows=ROWS))


class PlanRunTest(TwoInstancePlanBase):
    DIR_NAME = "plan"

    def start(self, out, prefix=(), hold=()):
        if os.path.exists(out):
            os.remove(out)
        p = Proc(self, ["run", "--plan", self.plan, "--json", out], prefix,
                 HoldAtStart(hold) if hold else None)
        wait_started(self, p)
        return p

    def check(self, p, out):
        self.assertEqual(p.finish(), 130, p.output())
        doc = self.result(out)
        self.assertEqual([i["name"] for i in doc["instances"]], ["o_1", "o_2"])
        self.assertTrue(all(i["interrupted"] for i in doc["instances"]))
        return doc

    def test_timeout_writes_the_result(self):
        out = os.path.join(self.dir, "timeout.json")
        p = self.start(out, prefix=["timeout", "--preserve-status", "10m"])
        timeout_expires(p)
        self.assertVerified(self.check(p, out))

    def test_second_term_is_noted_and_the_run_stops_gracefully(self):
        out = os.path.join(self.dir, "two.json")
        p = self.start(out, hold=self.dbs)
        locks = hold_workers(self, p, self.dbs)
        send_in_turn(p, signal.SIGTERM, [FIRST, SECOND])
        for lock in locks:
            lock.release()
        self.assertVerified(self.check(p, out))

    def test_third_term_stops_at_once_and_writes_the_result(self):
        out = os.path.join(self.dir, "three.json")
        p = self.start(out)
        locks = hold_workers(self, p, self.dbs)
        send_in_turn(p, signal.SIGTERM, [FIRST, SECOND, AT_ONCE])
        for lock in locks:
            lock.release()
        doc = self.check(p, out)
        self.assertAtOnce(doc)
        self.assertEqual([i["verify"] for i in doc["instances"]], [[], []])


class ConsolidateTest(TwoInstancePlanBase):
    """An interrupted search writes the search so far (not finished) and the interrupted run's
    own result (interrupted)."""
    DIR_NAME = "consolidate"

    def start(self, name, prefix=(), hold=()):
        search = os.path.join(self.dir, name + ".json")
        shutil.rmtree(os.path.join(self.dir, name + "-runs"), ignore_errors=True)
        if os.path.exists(search):
            os.remove(search)
        p = Proc(self, ["consolidate", "--plan", self.plan, "--instances", "1..2", "--runs", "1",
                        "--search", search], prefix, HoldAtStart(hold) if hold else None)
        wait_started(self, p)
        return p, search, os.path.join(self.dir, name + "-runs", "n1-run1.json")

    def check(self, p, search, run_file):
        self.assertEqual(p.finish(), 130, p.output())
        self.assertIn("--resume", p.output())
        with open(search) as f:
            s = json.load(f)
        self.assertFalse(s["finished"])
        self.assertEqual(sum(len(c["runs"]) for c in s["counts"]), 0)
        return self.result(run_file)

    def test_timeout_writes_the_search_and_the_run(self):
        p, search, run_file = self.start("timeout", prefix=["timeout", "--preserve-status", "10m"])
        timeout_expires(p)
        self.assertVerified(self.check(p, search, run_file))

    def test_second_term_is_noted_and_the_search_stops_gracefully(self):
        p, search, run_file = self.start("two", hold=self.dbs[:1])
        locks = hold_workers(self, p, self.dbs[:1])
        send_in_turn(p, signal.SIGTERM, [FIRST, SECOND])
        locks[0].release()
        self.assertVerified(self.check(p, search, run_file))

    def test_third_term_stops_at_once_and_writes_the_search(self):
        p, search, run_file = self.start("three")
        locks = hold_workers(self, p, self.dbs[:1])
        send_in_turn(p, signal.SIGTERM, [FIRST, SECOND, AT_ONCE])
        locks[0].release()
        self.assertAtOnce(self.check(p, search, run_file))


class OltpLoadTest(unittest.TestCase):
    """A load stopped by signals leaves the database marked unfinished (it writes no result): a
    run refuses it with the usual message and load --force redoes it. A load has nothing to
    finish, so the third signal exits at once, even while the loader waits for a lock."""

    @classmethod
    def setUpClass(cls):
        cls.dir = fresh_dir("oltp_load")

    def start(self, name, prefix=()):
        db = os.path.join(self.dir, name + ".db")
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(db + suffix):
                os.remove(db + suffix)
        # Far more rows than it gets to: the signals always come during the load.
        p = Proc(self, ["oltp", "load", "--workload", "oltp", "--db", "sqlite://" + db,
                        "--tables", "1", "--table_size", "100000000"], prefix)

        def loading():
            # The load marks the database before its first row, after its stop handlers are in.
            try:
                with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=60) as c:
                    row = c.execute(
                        "SELECT value FROM storebench_meta WHERE key = 'state'").fetchone()
                    return row is not None and row[0] == "loading"
            except sqlite3.Error:
                return False
        wait_for(loading, "the load to start")
        return p, db

    def check_unfinished_then_redone(self, p, db):
        self.assertEqual(p.finish(), 130, p.output())
        r = storebench("oltp", "run", "--workload", "oltp", "--db", "sqlite://" + db, "--tables",
                       "1", "--table_size", str(ROWS), "--run_time", "1s", "--warmup_time", "0")
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("load into this database did not finish", r.stderr)
        r = storebench("oltp", "load", "--workload", "oltp", "--db", "sqlite://" + db, "--tables",
                       "1", "--table_size", str(ROWS), "--force")
        self.assertEqual(r.returncode, 0, r.stderr)
        with sqlite3.connect(db) as c:
            self.assertEqual(c.execute("SELECT count(*) FROM sbtest1").fetchone()[0], ROWS)

    def test_timeout_leaves_the_database_unfinished(self):
        p, db = self.start("timeout", prefix=["timeout", "--preserve-status", "10m"])
        timeout_expires(p)
        self.check_unfinished_then_redone(p, db)

    def signals_while_loading(self, p, notes):
        """Sends SIGTERM once per note, each after the previous one's note. The loader waits for
        the test's lock at its next batch; only when it had just finished one and saw the first
        signal before waiting does it end at once, and the later signals find it gone."""
        for note in notes:
            p.signal(signal.SIGTERM)
            wait_for(lambda: p.count(note) > 0 or p.proc.poll() is not None, repr(note))

    def test_two_terms_leave_the_database_unfinished(self):
        p, db = self.start("two")
        lock = WriteLock(db)
        self.addCleanup(lock.release)
        self.signals_while_loading(p, [FIRST_LOAD, SECOND])
        lock.release()
        self.check_unfinished_then_redone(p, db)
        self.assertIn("load stopped by a signal", p.output())

    def test_third_term_exits_at_once(self):
        p, db = self.start("three")
        lock = WriteLock(db)
        self.addCleanup(lock.release)
        self.signals_while_loading(p, [FIRST_LOAD, SECOND])
        p.signal(signal.SIGTERM)
        # Ends with the lock still held: it does not wait for the loader.
        self.assertEqual(p.finish(), 130, p.output())
        lock.release()
        self.check_unfinished_then_redone(p, db)


class Recorder(unittest.TestResult):
    """A result that keeps what happened to each case, in order, to be told to the runner's
    result later (replay): a class's cases run on a thread of their own without interleaving
    the runner's output with another class's."""

    def __init__(self):
        super().__init__()
        self.events = []

    def startTest(self, test):
        super().startTest(test)
        self.events.append(("startTest", test))

    def stopTest(self, test):
        super().stopTest(test)
        self.events.append(("stopTest", test))

    def addSuccess(self, test):
        self.events.append(("addSuccess", test))

    def addFailure(self, test, err):
        self.events.append(("addFailure", test, err))

    def addError(self, test, err):
        self.events.append(("addError", test, err))

    def addSkip(self, test, reason):
        self.events.append(("addSkip", test, reason))

    def addExpectedFailure(self, test, err):
        self.events.append(("addExpectedFailure", test, err))

    def addUnexpectedSuccess(self, test):
        self.events.append(("addUnexpectedSuccess", test))

    def addSubTest(self, test, subtest, err):
        self.events.append(("addSubTest", test, subtest, err))

    def replay(self, result):
        for name, *args in self.events:
            getattr(result, name)(*args)


class ClassesSideBySide(unittest.TestSuite):
    """Runs each test class (its setUpClass, its cases one after another, its tearDownClass) on
    a thread of its own, the classes side by side, then reports every case to the runner in
    order. Nearly all of a case's time is waiting: for a whole one-second interval without a
    transaction (hold_workers), for the first second's figures, for a line; the classes use
    databases and files of their own, so their waits overlap instead of adding up."""

    def run(self, result, debug=False):
        import concurrent.futures
        suites = [suite for suite in self if suite.countTestCases()]

        def run_suite(suite):
            recorder = Recorder()
            suite.run(recorder)
            return recorder
        with concurrent.futures.ThreadPoolExecutor(max(1, len(suites))) as pool:
            recorders = list(pool.map(run_suite, suites))
        for recorder in recorders:
            recorder.replay(result)
        return result


def load_tests(loader, tests, pattern):
    return ClassesSideBySide(tests)


if __name__ == "__main__":
    harness.main()
