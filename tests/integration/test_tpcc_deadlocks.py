"""A real deadlock between a TPC-C-like Payment and another client on MariaDB, counted in its
error category and retried by the driver.

Payment updates its WAREHOUSE row, then its DISTRICT row (clause 2.5.2.2). This test's client
(the `mariadb` command) holds every DISTRICT row of warehouse 1, then one storebench worker runs
one Payment (--weights 0,100,0,0,0 --units_total 1) on that warehouse; once InnoDB shows the
Payment waiting (holding the WAREHOUSE row), the client asks for the WAREHOUSE row: a lock
cycle. InnoDB rolls back the transaction that changed fewer rows (the Payment: one row against
the client's ten), the driver counts a deadlock, pauses and runs the same Payment again, which
then commits and ends the run (a 10-s run of Payments around the deadlock spent most of the
test's time after it). The client's changes cancel out, so every consistency condition still
holds afterwards.

Database sbtest_tpcc of STOREBENCH_MYSQL_URL (shared with test_tpcc: RESOURCE_LOCK)."""
import json
import os
import subprocess
import time
import unittest
import urllib.parse

import harness
from harness import storebench, tmp_path

URL = harness.server_url("STOREBENCH_MYSQL_URL", "sbtest_tpcc")


def client_cmd(url, *extra):
    u = urllib.parse.urlsplit(url)
    return ["mariadb", "--no-defaults", "--batch", "--skip-column-names", "-h", u.hostname, "-P",
            str(u.port), "-u", u.username, *extra, u.path.lstrip("/")]


def client_env(url):
    env = dict(os.environ)
    password = urllib.parse.urlsplit(url).password
    if password:
        env["MYSQL_PWD"] = password  # never on the command line
    return env


def waiting_transactions(url, besides):
    """Connections of this test's database, but connection `besides`, waiting for a row lock:
    in InnoDB's transaction list as LOCK WAIT, or (a clean-clone CI run and a rerun saw the
    waiting Payment missing from information_schema.innodb_trx) in the process list inside an
    UPDATE of DISTRICT, which cannot go on while `besides` holds every district of the only
    warehouse."""
    r = subprocess.run(
        client_cmd(url, "-e",
                   "SELECT count(*) FROM information_schema.processlist p "
                   "LEFT JOIN information_schema.innodb_trx t "
                   "ON p.id = t.trx_mysql_thread_id "
                   "WHERE p.db = DATABASE() AND p.id <> " + str(int(besides)) + " "
                   "AND (t.trx_state = 'LOCK WAIT' OR "
                   "(p.state = 'Updating' AND p.info LIKE 'UPDATE district %'))"),
        capture_output=True, text=True, timeout=60, env=client_env(url))
    assert r.returncode == 0, r.stderr
    return int(r.stdout.strip() or 0)


class TpccDeadlockTest(unittest.TestCase):
    def test_payment_deadlock_is_counted_and_retried(self):
        harness.require_server(self, URL)
        r = storebench("oltp", "load", "--workload", "tpcc", "--db", URL, "--warehouses", "1",
                       "--force", timeout=600)
        self.assertEqual(r.returncode, 0, r.stderr)
        out = tmp_path("it-tpcc-deadlock.json")
        holder = subprocess.Popen(client_cmd(URL, "--unbuffered"), stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                  env=client_env(URL))
        run = None
        try:
            # The client runs statements as they come (and answers at once, --unbuffered).
            holder.stdin.write("SELECT CONNECTION_ID();\n")
            holder.stdin.flush()
            holder_id = int(holder.stdout.readline())
            # The districts held (the SELECT answers after the UPDATE) before the run starts.
            holder.stdin.write("START TRANSACTION;\n"
                               "UPDATE district SET d_ytd = d_ytd + 1 WHERE d_w_id = 1;\n"
                               "SELECT 'held';\n")
            holder.stdin.flush()
            self.assertEqual(holder.stdout.readline().strip(), "held")
            # One Payment, ending the run once it commits (--run_time only bounds a run that
            # never gets it done).
            run = subprocess.Popen(
                [harness.ARGS.binary, "oltp", "run", "--workload", "tpcc", "--db", URL,
                 "--weights", "0,100,0,0,0", "--n_threads", "1", "--warmup_time", "0s",
                 "--units_total", "1", "--run_time", "120s", "--json", out],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            # The run's Payment soon waits for a district, holding its warehouse.
            waited = False
            for _ in range(300):
                if waiting_transactions(URL, holder_id) > 0:
                    waited = True
                    break
                time.sleep(0.05)
            self.assertTrue(waited, "no Payment came to wait for the districts")
            holder.stdin.write("UPDATE warehouse SET w_ytd = w_ytd + 0 WHERE w_id = 1;\n"
                               "UPDATE district SET d_ytd = d_ytd - 1 WHERE d_w_id = 1;\n"
                               "COMMIT;\n")
            holder.stdin.close()
            holder_err = holder.stderr.read()
            self.assertEqual(holder.wait(timeout=120), 0,
                             "the test's client was the deadlock's victim: " + holder_err)
        except BaseException:
            if run is not None:  # its Payment may wait for ever on the districts
                run.kill()
                run.communicate()
            raise
        finally:
            if holder.poll() is None:
                holder.kill()
                holder.wait()
            holder.stdout.close()
            holder.stderr.close()
        self.assertIsNotNone(run)
        stdout, stderr = run.communicate(timeout=300)
        self.assertEqual(run.returncode, 0, stderr[-3000:])
        with open(out) as f:
            doc = json.load(f)
        errors = doc["errors"]
        self.assertGreaterEqual(errors.get("deadlock", 0), 1, (errors, stderr[-3000:]))
        # Every error was that deadlock, and each was retried (none gave up).
        self.assertEqual(sum(errors.values()), errors["deadlock"], errors)
        self.assertEqual(doc["retries"], errors["deadlock"], doc)
        # The worker's message names the deadlock and the retry.
        retried = [l for l in (stdout + stderr).splitlines() if "retrying" in l]
        self.assertTrue(any("Deadlock" in l for l in retried), stdout[-3000:] + stderr[-3000:])
        # The Payment did commit after its retry (on a slow machine perhaps after the measured
        # window: the cross-check's span counts the wind-down too).
        self.assertGreaterEqual(doc["server_check"]["client_units"], 1, doc["server_check"])
        for v in doc["verify"]:
            self.assertTrue(v["passed"], v)


if __name__ == "__main__":
    harness.main()
