"""Resilience of the TPC-C-like workload: the server restarts in the middle of a run (a VM
rebooting). Workers reconnect with backoff and go on; the outage shows in the result
(connection_lost errors, reconnects, seconds without transactions); the run ends on time, and
afterwards every consistency condition holds and sum(D_NEXT_O_ID) grew by exactly the New-Orders
the client counted as committed (a transaction cut off by the shutdown was rolled back, not
half-applied or counted twice); `verify` then passes all twelve conditions.

The third PostgreSQL and the third MariaDB instance servers of `scripts/services.sh
start-instances 3` (database sbtest_fault_plan), so that the main servers and instances 1-2 of
test_fault_instance_restart stay up; ctest gives it those two servers alone (RESOURCE_LOCK in
tests/CMakeLists.txt), not the whole machine."""
import json
import os
import subprocess
import threading
import time
import unittest
import urllib.parse

import harness
from harness import tmp_path

REQUIRED = os.environ.get("STOREBENCH_REQUIRE_SERVICES") == "1"
DATABASE = "sbtest_fault_plan"
INSTANCE = 3  # the only instance server this test restarts


def instance_url(env):
    """Instance server INSTANCE of `scripts/services.sh env`'s list in `env`, or ""."""
    urls = (os.environ.get(env) or "").split()
    if len(urls) < INSTANCE:
        return ""
    u = urllib.parse.urlsplit(urls[INSTANCE - 1])
    return urllib.parse.urlunsplit((u.scheme, u.netloc, "/" + DATABASE, "", ""))


class Restart(threading.Thread):
    """One kind's restart, from the database's preparation to the verify after the run; what
    each step returned is kept for the case that asserts on it."""

    def __init__(self, case):
        super().__init__(daemon=True)
        self.url, self.kind = case.url, case.kind
        self.error = self.restart = None

    def run(self):
        try:
            services = os.path.join(harness.ARGS.source, "scripts", "services.sh")
            common = ["--workload", "tpcc", "--db", self.url]
            # The database as the last run left it, loaded only when missing (a fresh server):
            # each run ends with `verify` passing all twelve conditions, so it is a consistent
            # TPC-C-like database, and none of the assertions depends on where the run starts
            # (D_NEXT_O_ID's growth is measured from the run's start). Bringing it back from a
            # pristine copy took MariaDB 5-20 s (8 tables refilled), a load 13 s.
            self.prepared = subprocess.run([harness.ARGS.binary, "oltp", "load", *common,
                                            "--warehouses", "1"],
                                           capture_output=True, text=True, timeout=600)
            if (self.prepared.returncode == 2 and
                    "already holds a TPC-C-like database" in self.prepared.stderr):
                self.prepared.returncode = 0
            if self.prepared.returncode != 0:
                return
            self.out = tmp_path(f"it-fault-tpcc-{self.kind}.json")
            log = tmp_path(f"it-fault-tpcc-{self.kind}.err")
            # The server goes away once the workers run transactions (the first second's
            # progress line), for 2 s: with the stop and the start, some 3-5 s without a
            # transaction, so at least one whole second. The workers find it back within 1 s
            # (their backoff's cap) of its return, 4-7 s into the run, which leaves the run's
            # last seconds (12 s in all) to transactions again. (It ran 16 s, the restart 3 s
            # in and 3 s away, with a 5-s backoff cap.)
            with open(log, "w") as err:
                run = subprocess.Popen([harness.ARGS.binary, "oltp", "run", *common,
                                        "--n_threads", "4", "--run_time", "12s",
                                        "--warmup_time", "0s", "--log_freq", "1",
                                        "--progress=json", "--json", self.out],
                                       stdout=subprocess.PIPE, stderr=err, text=True)
            try:
                harness.wait_for_text(log, harness.progress_has_units, run)
                self.restart = subprocess.run([services, "restart-instance", self.kind,
                                               str(INSTANCE), "2"],
                                              capture_output=True, text=True, timeout=180)
                if self.restart.returncode != 0:
                    return
                start = time.time()
                self.stdout, _ = run.communicate(timeout=180)
                self.elapsed = time.time() - start
                self.returncode = run.returncode
            finally:
                if run.poll() is None:
                    run.kill()
                    run.communicate()
            with open(log) as fh:
                self.stderr = fh.read()
            # `verify` checks all twelve conditions (a run checks the cheaper ones).
            self.verify = subprocess.run([harness.ARGS.binary, "oltp", "verify", *common],
                                         capture_output=True, text=True, timeout=600)
        except BaseException as e:  # raised again by the case that asks for this restart
            self.error = e


RESTARTS = {}


def restarted(case):
    """The restart of `case`'s kind. The first case to ask restarts both kinds' servers at once
    (each its own instance server 3): a case is mostly its 12-s run, and the two one after the
    other took twice as long."""
    if not RESTARTS:
        for c in (PostgresRestartTest, MariadbRestartTest):
            if not harness.reachable(c.url):
                continue
            # scripts/services.sh: instance i listens on the base port + i. Checked before any
            # server is restarted.
            port = urllib.parse.urlsplit(c.url).port
            if port - int(os.environ.get(c.base_env, c.base_default)) != INSTANCE:
                RESTARTS[c.kind] = AssertionError(f"{c.url} is not instance server {INSTANCE}")
                continue
            RESTARTS[c.kind] = Restart(c)
        threads = [r for r in RESTARTS.values() if isinstance(r, Restart)]
        for r in threads:
            r.start()
        for r in threads:
            r.join()
    r = RESTARTS[case.kind]
    if isinstance(r, BaseException):
        raise r
    if r.error is not None:
        raise r.error
    return r


class RestartMixin:
    url = None
    kind = None  # scripts/services.sh restart-instance's pg|mariadb
    base_env = None  # the environment variable of that kind's instance base port
    base_default = None

    def test_run_survives_a_restart(self):
        if not harness.reachable(self.url):
            msg = (f"instance server {INSTANCE} is needed (scripts/services.sh start-instances "
                   f"{INSTANCE}); have '{self.url}'")
            if REQUIRED:
                self.fail(msg)
            self.skipTest(msg)
        r = restarted(self)
        self.assertEqual(r.prepared.returncode, 0, r.prepared.stderr)
        self.assertEqual(r.restart.returncode, 0, r.restart.stderr)
        stdout, stderr = r.stdout, r.stderr
        self.assertLess(r.elapsed, 90)  # ends on time, does not hang
        self.assertEqual(r.returncode, 0, stderr[-3000:] + stdout[-3000:])
        with open(r.out) as f:
            doc = json.load(f)
        self.assertGreaterEqual(doc["errors"]["connection_lost"], 1, stderr[-3000:])
        self.assertGreaterEqual(doc["counters"]["reconnects"], 4, stderr[-3000:])  # each worker
        self.assertGreaterEqual(doc["counters"]["seconds_without_units"], 1)
        self.assertEqual(doc["workers"]["failed"], 0, stderr[-3000:])
        # Work resumed after the outage: the last seconds have transactions again.
        self.assertGreater(sum(p["counts"][0] for p in doc["time_series"]["points"][-3:]), 0)
        self.assertIn("reconnecting", stdout + stderr)
        checks = {c["name"]: c for c in doc["verify"]}
        self.assertIn("committed_new_orders_match", checks)
        self.assertTrue(all(c["passed"] for c in doc["verify"]), doc["verify"])
        # `verify` checks all twelve conditions (a run checks the cheaper ones).
        v = r.verify
        self.assertEqual(v.returncode, 0, v.stdout + v.stderr)
        self.assertIn("consistency_12_customer_balance_ytd PASS", v.stdout + v.stderr)


class PostgresRestartTest(RestartMixin, unittest.TestCase):
    url = instance_url("STOREBENCH_PG_URLS")
    kind = "pg"
    base_env = "STOREBENCH_PG_INSTANCE_PORT"
    base_default = "25432"


class MariadbRestartTest(RestartMixin, unittest.TestCase):
    url = instance_url("STOREBENCH_MYSQL_URLS")
    kind = "mariadb"
    base_env = "STOREBENCH_MYSQL_INSTANCE_PORT"
    base_default = "23306"


if __name__ == "__main__":
    harness.main()
