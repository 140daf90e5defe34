"""Resilience: the server is restarted in the middle of a run. Workers reconnect with backoff and
go on; the outage shows in the result (connection_lost errors, reconnects, seconds without
transactions); the run neither crashes nor hangs past its end, and still verifies. PostgreSQL
(fast shutdown) and MariaDB (SIGTERM), each on its sbtest_fault database, both at once (each
restarts its own server); RUN_SERIAL (it restarts the main servers)."""
import json
import os
import subprocess
import threading
import time
import unittest

import harness
from harness import tmp_path


class Restart(threading.Thread):
    """One server's restart under a run, from the load to the run's end; what each step
    returned is kept for the case that asserts on it."""

    def __init__(self, case):
        super().__init__(daemon=True)
        self.url, self.command = case.url, case.restart
        self.error = self.restart = self.checkpoint = None

    def run(self):
        try:
            services = os.path.join(harness.ARGS.source, "scripts", "services.sh")
            common = ["--workload", "oltp", "--db", self.url, "--tables", "1", "--table_size",
                      "10000"]
            self.load = subprocess.run([harness.ARGS.binary, "oltp", "load", *common, "--force"],
                                       capture_output=True, text=True, timeout=300)
            if self.load.returncode != 0:
                return
            # What the server holds dirty is written before the run, not by the restart's
            # shutdown checkpoint within it (on a fresh server: 24 s, longer than the run).
            if self.command == "restart-postgres":
                self.checkpoint = subprocess.run([services, "checkpoint-postgres"],
                                                 capture_output=True, text=True, timeout=600)
                if self.checkpoint.returncode != 0:
                    return
            self.out = tmp_path(f"it-fault-{self.command}.json")
            log = tmp_path(f"it-fault-{self.command}.err")
            # The server goes away once the workers run transactions (the first second's
            # progress line), for 2 s: with the stop and the start, some 3 s without a
            # transaction, so at least one whole second. The workers find it back within 1 s
            # (their backoff's cap) of its return, 4-6 s into the run, which leaves the
            # run's last seconds (12 s in all) to transactions again. (It ran 20 s, the
            # restart 4 s in, with a 5-s backoff cap.)
            with open(log, "w") as err:
                run = subprocess.Popen([harness.ARGS.binary, "oltp", "run", *common, "--test",
                                        "read_write", "--threads", "4", "--duration", "12s",
                                        "--warmup", "0", "--progress=json", "--json", self.out],
                                       stdout=subprocess.DEVNULL, stderr=err, text=True)
            try:
                harness.wait_for_text(log, harness.progress_has_units, run)
                self.restart = subprocess.run([services, self.command, "2"],
                                              capture_output=True, text=True, timeout=180)
                if self.restart.returncode != 0:
                    return
                start = time.time()
                run.wait(timeout=120)
                self.elapsed = time.time() - start
                self.returncode = run.returncode
            finally:
                if run.poll() is None:
                    run.kill()
                    run.wait()
            with open(log) as fh:
                self.stderr = fh.read()
        except BaseException as e:  # raised again by the case that asks for this restart
            self.error = e


RESTARTS = {}


def restarted(case):
    """The restart of `case`'s server. The first case to ask restarts both servers at once: a
    case is mostly its run, and one after the other took twice as long with one of ctest's two
    cores idle (RUN_SERIAL)."""
    if not RESTARTS:
        for c in (PostgresRestartTest, MariadbRestartTest):
            if harness.reachable(c.url):
                RESTARTS[c.restart] = Restart(c)
        for r in RESTARTS.values():
            r.start()
        for r in RESTARTS.values():
            r.join()
    r = RESTARTS[case.restart]
    if r.error is not None:
        raise r.error
    return r


class RestartMixin:
    url = None
    restart = None  # the scripts/services.sh command

    def test_run_survives_a_restart(self):
        harness.require_server(self, self.url)
        r = restarted(self)
        self.assertEqual(r.load.returncode, 0, r.load.stderr)
        if r.checkpoint is not None:
            self.assertEqual(r.checkpoint.returncode, 0, r.checkpoint.stderr)
        self.assertEqual(r.restart.returncode, 0, r.restart.stderr)
        stderr = r.stderr
        self.assertLess(r.elapsed, 60)  # ends on time, does not hang
        self.assertEqual(r.returncode, 0, stderr[-3000:])
        with open(r.out) as f:
            doc = json.load(f)
        self.assertGreaterEqual(doc["errors"]["connection_lost"], 1, stderr[-3000:])
        self.assertGreaterEqual(doc["counters"]["reconnects"], 4, stderr[-3000:])  # every worker
        self.assertGreaterEqual(doc["counters"]["seconds_without_units"], 1)
        self.assertEqual(doc["workers"]["failed"], 0, stderr[-3000:])
        # Work resumed after the outage: the last seconds have transactions again.
        self.assertGreater(sum(p["counts"][0] for p in doc["time_series"]["points"][-3:]), 0)
        self.assertIn("reconnecting", stderr)
        self.assertTrue(all(c["passed"] for c in doc["verify"]), doc["verify"])


class PostgresRestartTest(RestartMixin, unittest.TestCase):
    url = harness.server_url("STOREBENCH_PG_URL", "sbtest_fault")
    restart = "restart-postgres"


class MariadbRestartTest(RestartMixin, unittest.TestCase):
    url = harness.server_url("STOREBENCH_MYSQL_URL", "sbtest_fault")
    restart = "restart-mariadb"


if __name__ == "__main__":
    harness.main()
