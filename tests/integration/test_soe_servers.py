"""The Order Entry workload on the PostgreSQL and MariaDB servers of scripts/services.sh
(database sbtest_soe): load, a short run of the VMware FT paper's Swingbench configuration,
the server cross-check and verify; pooled users (--soe_users) never holding more connections
than the pool while every user completes transactions. Without a reachable server the tests
skip, unless STOREBENCH_REQUIRE_SERVICES=1, when they fail."""
import json
import os
import subprocess
import time
import unittest
import urllib.parse

import harness
from harness import require_server, server_url, storebench, tmp_path

POOL_APP = "sbtest_soe2_pool"  # the application_name of the pool test's PostgreSQL connections


def start_loads():
    """Starts the load of sbtest_soe on every reachable server, once, side by side: the
    PostgreSQL one (a server of its own) loads while the MariaDB cases run."""
    for cls in (SoeMariaDbTest, SoePostgresTest):
        if cls.load_started is None and harness.reachable(cls.url):
            cls.load_started = harness.storebench_started(
                "oltp", "load", "--workload", "soe", "--db", cls.url, "--soe_scale", "0.002",
                "--force")


class SoeServerMixin:
    url = None
    loaded = False  # per class: set by load_once
    load_started = None  # per class: its load's future (start_loads)

    def load_once(self):
        """Loads sbtest_soe the first time a case of the class asks (a load per case took 2-3 s
        each); the cases after it run on what the earlier ones left, which verify still
        passes."""
        if type(self).loaded:
            return
        start_loads()
        r = type(self).load_started.result()
        self.assertEqual(r.returncode, 0, r.stderr)
        type(self).loaded = True

    def test_load_run_paper_configuration_verify(self):
        require_server(self, self.url)
        common = ["--workload", "soe", "--db", self.url]
        self.load_once()
        xml = os.path.join(harness.ARGS.source, "docs", "examples", "soe_vmware_ft.xml")
        out = tmp_path(f"it-soe-server-{type(self).__name__}.json")
        # 1 s, the 8 connections opened at once (--ramp_rate 1000): a hundred or more
        # transactions, Order Products among them, for the checks below (2 s before).
        r = storebench("oltp", "run", *common, "--config_file", xml, "--n_threads", "8",
                       "--warmup_time", "0", "--run_time", "1s", "--min_delay", "1",
                       "--max_delay", "5", "--weight_op", "40", "--ramp_rate", "1000",
                       "--json", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(out) as f:
            doc = json.load(f)
        fig = doc["figures"]
        self.assertGreater(fig["completed_transactions"], 0)
        self.assertEqual(fig["failed_transactions"], 0)
        self.assertGreater(fig["n_OP"], 0)
        self.assertTrue(all(c["passed"] for c in doc["verify"]), doc["verify"])
        names = {c["name"]: c for c in doc["server_check"]["comparisons"]}
        for n in ("new_orders_vs_table_rows", "new_customers_vs_table_rows"):
            self.assertTrue(names[n]["passed"], names[n])
        self.assertIn("60 s: the server cancels", doc["choices"]["query_timeout"])
        # Swingbench's DML chart from the server's own counters: its inserts (statements, or on
        # PostgreSQL without pg_stat_statements the rows written), each named by its counter.
        dml = [l for l in r.stdout.splitlines() if l.startswith("Server DML per minute")]
        self.assertEqual(len(dml), 1, r.stdout)
        self.assertRegex(dml[0], r"(insert|rows inserted) \(\w+(\.\w+)?\) [1-9]")
        r = storebench("oltp", "verify", *common)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)

    def test_pooled_users_never_exceed_the_pool(self):
        """12 users on a pool of 3 connections: the server never sees more than the pool plus
        the run's own connection (readiness, snapshots, server counters), and every user
        completes transactions."""
        require_server(self, self.url)
        self.load_once()
        out = tmp_path(f"it-soe-pool-{type(self).__name__}.json")
        if os.path.exists(out):
            os.remove(out)
        # 2 s: a dozen samples of the server's connections and two charbench lines (3 s took a
        # second more per server).
        run = subprocess.Popen(
            [harness.ARGS.binary, "oltp", "run", "--workload", "soe", "--db", self.run_url,
             "--n_threads", "3", "--soe_users", "12", "--warmup_time", "0", "--run_time", "2s",
             "--min_delay", "1", "--max_delay", "5", "--log_freq", "1", "--json", out],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        most, samples = 0, 0
        while run.poll() is None:
            most = max(most, self.connections())
            samples += 1
            time.sleep(0.1)
        stdout, stderr = run.communicate()
        self.assertEqual(run.returncode, 0, stderr)
        self.assertGreater(samples, 5)
        self.assertGreaterEqual(most, 3, "the pool's connections were never seen")
        self.assertLessEqual(most, 3 + 1, "more server connections than the pool")
        with open(out) as f:
            doc = json.load(f)
        fig = doc["figures"]
        self.assertEqual(fig["pool_size"], 3)
        self.assertEqual(fig["pool_users"], 12)
        self.assertEqual(fig["pool_users_served"], 12)
        self.assertEqual(fig["failed_transactions"], 0)
        # Four users per connection and no inter-transaction delay: a user always waits.
        self.assertGreater(fig["pool_waits"], 0)
        self.assertGreater(fig["pool_wait_ms"], 0)
        self.assertIn("12 users share a pool of 3 connections", doc["choices"]["connections"])
        # charbench's Users column counts the users, not the connections.
        lines = [l.split() for l in stderr.splitlines() if l[:2].isdigit() and ":" in l[:8]]
        self.assertTrue(lines, stderr)
        self.assertTrue(all(l[1] == "[12/12]" for l in lines), lines)


class SoePostgresTest(SoeServerMixin, unittest.TestCase):
    url = server_url("STOREBENCH_PG_URL", "sbtest_soe")
    run_url = url + "?application_name=" + POOL_APP if url else url

    def connections(self):
        r = subprocess.run(
            ["psql", "-X", "-A", "-t", "-d", self.url, "-c",
             "SELECT count(*) FROM pg_stat_activity WHERE datname = 'sbtest_soe' "
             f"AND application_name = '{POOL_APP}'"],
            capture_output=True, text=True, timeout=30)
        self.assertEqual(r.returncode, 0, r.stderr)
        return int(r.stdout.strip())


    def test_query_timeout_is_a_timeout_error_counted_and_retried(self):
        """A statement the server cancels after --query_timeout (Browse Products' stock look-up,
        blocked for 1.5 s behind another session's lock on INVENTORIES) is a timeout error:
        counted by its category and retried, and the run ends normally."""
        require_server(self, self.url)
        common = ["--workload", "soe", "--db", self.url]
        self.load_once()
        out = tmp_path("it-soe-timeout.json")
        weights = []
        for t in ("ncr", "ucd", "op", "po", "bo", "sq", "wq", "wa"):
            weights += [f"--weight_{t}", "0"]
        run = subprocess.Popen(
            [harness.ARGS.binary, "oltp", "run", *common, "--n_threads", "2", "--warmup_time",
             "0", "--run_time", "3s", "--min_delay", "0", "--max_delay", "0", "--weight_bp", "1",
             *weights, "--query_timeout", "1", "--server_check=N", "--log_freq", "1",
             "--json", out],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        # Lock once the users are running (their statements are prepared by then): from about
        # 1 s to 2.5 s of the 3 s run, so statements time out (1 s) while it holds and complete
        # after it (4 s and 2.5 s before).
        stderr = ""
        for line in run.stderr:
            stderr += line
            if line[:2].isdigit() and ":" in line[:8]:
                break
        locker = subprocess.run(
            ["psql", "-X", "-q", "-d", self.url, "-c",
             "BEGIN; LOCK TABLE inventories IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(1.5); "
             "COMMIT;"],
            capture_output=True, text=True, timeout=60)
        self.assertEqual(locker.returncode, 0, locker.stderr)
        stdout, rest = run.communicate(timeout=120)
        stderr += rest
        self.assertEqual(run.returncode, 0, stderr)
        with open(out) as f:
            doc = json.load(f)
        self.assertGreaterEqual(doc["errors"]["timeout"], 1, doc["errors"])
        self.assertGreaterEqual(doc["retries"], 1, doc["errors"])
        self.assertGreater(doc["figures"]["completed_transactions"], 0)
        self.assertIn("1 s: the server cancels", doc["choices"]["query_timeout"])


class SoeMariaDbTest(SoeServerMixin, unittest.TestCase):
    url = server_url("STOREBENCH_MYSQL_URL", "sbtest_soe")
    run_url = url

    def connections(self):
        # The test's connection is in the PROCESSLIST too, but with no database selected.
        u = urllib.parse.urlsplit(self.url)
        r = subprocess.run(
            ["mariadb", "--no-defaults", "--batch", "--skip-column-names", "-h", u.hostname,
             "-P", str(u.port), "-u", u.username, "-e",
             "SELECT count(*) FROM information_schema.PROCESSLIST WHERE DB = 'sbtest_soe'"],
            capture_output=True, text=True, timeout=30)
        self.assertEqual(r.returncode, 0, r.stderr)
        return int(r.stdout.strip())


if __name__ == "__main__":
    harness.main()
