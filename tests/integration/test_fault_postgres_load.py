"""PostgreSQL goes away in the middle of a DVD Store load: the load stops with one clear
sentence and exit status 1 (a failed load, not bad input), the half-loaded database is
reported as such by run and verify, and `load --force` redoes it. Uses the sbtest_fault_load
database; RUN_SERIAL (it restarts the server)."""
import os
import subprocess
import unittest

import harness
from harness import storebench

URL = harness.server_url("STOREBENCH_PG_URL", "sbtest_fault_load")


class PostgresLoadFaultTest(unittest.TestCase):
    def test_server_lost_during_load_is_reported_and_force_redoes_it(self):
        harness.require_server(self, URL)
        services = os.path.join(harness.ARGS.source, "scripts", "services.sh")
        restart = None
        common = ["--db", URL, "--db_size=S"]
        log = harness.tmp_path("fault-postgres-load.err")
        with open(log, "w") as err:
            load = subprocess.Popen([harness.ARGS.binary, "oltp", "load", *common, "--force"],
                                    stdout=subprocess.PIPE, stderr=err, text=True)
        try:
            # The server goes away once the data phase has begun (S's takes seconds; its rows
            # come in one COPY per table, so the load is cut off in the middle).
            harness.wait_for_text(log, lambda t: "generating and loading" in t, load)
            self.assertIsNone(load.poll(), "the load finished before the server went away")
            # No pause while it is away: the load fails as the server shuts down.
            restart = subprocess.run([services, "restart-postgres", "0"], capture_output=True,
                                     text=True, timeout=180)
        finally:
            if restart is None and load.poll() is None:
                load.kill()
        self.assertEqual(restart.returncode, 0, restart.stderr)
        load.communicate(timeout=120)
        with open(log) as fh:
            stderr = fh.read()
        self.assertEqual(load.returncode, 1, stderr)
        last = stderr.strip().splitlines()[-1]
        self.assertTrue(last.startswith("storebench: "), stderr)
        self.assertNotIn("\n", last)

        # The half-loaded database is named as such, not used.
        r = storebench("oltp", "run", *common, "--run_time=1", "--warmup_time=0")
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("did not finish", r.stderr)
        self.assertIn("--force", r.stderr)
        r = storebench("oltp", "verify", "--db", URL)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("did not finish", r.stderr)

        # A load without --force refuses to touch it; with --force it is redone and verifies
        # (at 1MB: what is asserted is that --force replaces the half-loaded tables with a
        # whole load, which S's 2-million-odd rows and indexes only made take 15 s longer).
        r = storebench("oltp", "load", *common)
        self.assertEqual(r.returncode, 2, r.stderr)
        r = storebench("oltp", "load", "--db", URL, "--db_size=1MB", "--force")
        self.assertEqual(r.returncode, 0, r.stderr)
        r = storebench("oltp", "verify", "--db", URL)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)


if __name__ == "__main__":
    harness.main()
