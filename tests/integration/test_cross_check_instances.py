"""The server cross-check in runs of several instances, on the three PostgreSQL and three MariaDB
instance servers of `scripts/services.sh start-instances 3` (docs/fidelity.md, "Cross-checks
against the database's counters"):
- a DVD Store target list of 3 databases with a warm-up: every instance's committed orders equal
  the rows its ORDERS table gained, and no instance warns (each instance's reading and its part
  of the reset snapshot are taken at the same point of its work);
- MariaDB's counters are server-wide: with another client working on the server during the
  run, the comparisons that read them say "not compared" instead of differing;
- TPC-C's PostgreSQL TPM (xact_commit) counts the workload's transactions, not the driver's own
  (statement preparation, DEALLOCATE at close): without a warm-up it equals the client's TPM but
  for a few transactions per connection and the reader's own.
The databases: ds3 of each instance server (as `scripts/services.sh env` names it), loaded here
at 1MB, and sbtest_tpm on the first PostgreSQL one (created as the superuser, which loopback
trusts on these throwaway servers). Without the servers the cases skip, unless
STOREBENCH_REQUIRE_SERVICES=1, when they fail."""
import concurrent.futures
import json
import os
import subprocess
import unittest
import urllib.parse

import harness
from harness import storebench, tmp_path

REQUIRED = os.environ.get("STOREBENCH_REQUIRE_SERVICES") == "1"
SERVERS = 3


def server_urls(env):
    urls = harness.env_url(env).split()[:SERVERS]
    return urls if len(urls) == SERVERS and all(harness.reachable(u) for u in urls) else []


def need(test, urls, env):
    if urls:
        return
    msg = (f"{env} does not name {SERVERS} reachable servers (scripts/services.sh "
           f"start-instances {SERVERS}, then eval \"$(scripts/services.sh env)\")")
    if REQUIRED:
        test.fail(msg)
    test.skipTest(msg)


def load(url, *extra):
    r = storebench("oltp", "load", "--db", url, "--force", *extra, timeout=300)
    assert r.returncode == 0, r.stderr


def load_started(urls):
    """Starts the 1MB loads of `urls` (one server each) side by side; returns their futures."""
    return [harness.storebench_started("oltp", "load", "--db", u, "--force", "--db_size=1MB",
                                       timeout=300) for u in urls]


def loaded(test, futures):
    for f in futures:
        r = f.result()
        test.assertEqual(r.returncode, 0, r.stderr)


def tpm_database(pg_url):
    """sbtest_tpm on the server of `pg_url`, made when missing; then brought back from its
    pristine copy (a new database made from the copy: its counters start afresh) instead of
    loaded again (10 s each time before), or, without a copy, loaded with one. Returns its URL;
    raises AssertionError with the failing step's message."""
    u = urllib.parse.urlsplit(pg_url)
    psql = ["psql", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", u.hostname,
            "-p", str(u.port), "-U", "postgres", "-d", "postgres", "-c"]
    r = subprocess.run(psql + ["SELECT 1 FROM pg_database WHERE datname = 'sbtest_tpm'"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    if r.stdout.strip() != "1":
        r = subprocess.run(psql + ["CREATE DATABASE sbtest_tpm OWNER storebench"],
                           capture_output=True, text=True, timeout=60)
        assert r.returncode == 0, r.stderr
    url = urllib.parse.urlunsplit((u.scheme, u.netloc, "/sbtest_tpm", "", ""))
    r = storebench("oltp", "restore", "--workload=tpcc", "--db", url, timeout=300)
    if r.returncode != 0:
        load(url, "--workload=tpcc", "--warehouses=1", "--pristine")
    return url


def run_target_list(test, urls, name, *extra):
    out = tmp_path(f"it-xcheck-{name}.json")
    # A warm-up (the reset snapshot is what the case checks) and a measured window, each with
    # orders on every instance; the comparisons are exact counts, whatever the length (2 s and
    # 3 s before). The six connections open at once (10 a second by default).
    r = storebench("oltp", "run", "--db", ";".join(urls), "--n_threads=2", "--warmup_time=1s",
                   "--run_time=1s", "--think_time=0.01", "--ramp_rate=1000", "--json", out,
                   *extra, timeout=120)
    test.assertEqual(r.returncode, 0, r.stderr)
    with open(out) as f:
        return json.load(f)


class CrossCheckInstancesTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        # Every instance server's ds3 loaded at once (one server each: the loads wait on their
        # own servers, and the MariaDB ones, ~6 s each, on the others' cases): each case waits
        # for its own three.
        cls.pg_urls = server_urls("STOREBENCH_PG_URLS")
        cls.my_urls = server_urls("STOREBENCH_MYSQL_URLS")
        cls.my_loads = load_started(cls.my_urls)
        cls.pg_loads = load_started(cls.pg_urls)
        # The TPC-C database (another database of the first PostgreSQL server) beside them.
        cls.pool = concurrent.futures.ThreadPoolExecutor(1)
        cls.tpm_database = cls.pool.submit(tpm_database, cls.pg_urls[0]) if cls.pg_urls else None

    @classmethod
    def tearDownClass(cls):
        for f in cls.my_loads + cls.pg_loads:
            f.result()
        cls.pool.shutdown()

    def check_instances(self, doc):
        self.assertEqual(len(doc["instances"]), SERVERS)
        self.assertFalse([w for w in doc["warnings"] if "cross-check" in w], doc["warnings"])
        for inst in doc["instances"]:
            sc = inst["server_check"]
            cmp = {c["name"]: c for c in sc["comparisons"]}
            orders = cmp["committed_orders_vs_new_orders_rows"]
            self.assertEqual(orders["relation"], "==")
            self.assertEqual(orders["client"], orders["server"], (inst["name"], sc))
            self.assertTrue(all(c["passed"] for c in sc["comparisons"]), sc)

    def test_postgres_three_instances_with_warm_up(self):
        urls = self.pg_urls
        need(self, urls, "STOREBENCH_PG_URLS")
        loaded(self, self.pg_loads)
        self.check_instances(run_target_list(self, urls, "pg"))

    def test_mariadb_three_instances_with_warm_up_and_another_client(self):
        urls = self.my_urls
        need(self, urls, "STOREBENCH_MYSQL_URLS")
        loaded(self, self.my_loads)
        # One run for both halves of the case (before, a run without the other client came
        # first: 3 s more): another client busy on the first server for the whole run (its own
        # statements, in its own session), so that server's counters hold its work too, while
        # the second and third servers have only the run's sessions.
        u = urllib.parse.urlsplit(urls[0])
        sql = "; ".join(["SELECT SLEEP(0.25), COUNT(*) FROM information_schema.TABLES"] * 40)
        other = subprocess.Popen(["mariadb", "--no-defaults", "-h", u.hostname, "-P",
                                  str(u.port), "-u", u.username, "-e", sql],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            doc = run_target_list(self, urls, "my-shared")
        finally:
            other.kill()
            other.wait()
        self.check_instances(doc)
        # The servers without another client compare their counters (and agree: above).
        for inst in doc["instances"][1:]:
            cmp = {c["name"]: c for c in inst["server_check"]["comparisons"]}
            self.assertEqual(cmp["server_commits_vs_committed_orders"]["relation"], ">=",
                             (inst["name"], cmp))
        first = {c["name"]: c for c in doc["instances"][0]["server_check"]["comparisons"]}
        self.assertEqual(first["server_commits_vs_committed_orders"]["relation"], "not compared")
        self.assertIn("other sessions were active: not compared",
                      first["server_commits_vs_committed_orders"]["detail"])
        # The tables' rows are the database's own: still compared.
        self.assertEqual(first["committed_orders_vs_new_orders_rows"]["relation"], "==")

    def test_postgres_tpcc_server_tpm_is_the_clients(self):
        urls = self.pg_urls
        need(self, urls, "STOREBENCH_PG_URLS")
        u = urllib.parse.urlsplit(urls[0])
        url = self.tpm_database.result()  # made ready in setUpClass
        # Autovacuum visits a freshly loaded database within seconds, and each table it vacuums
        # or analyzes is a transaction of this database's counters (CI saw 9 more than the
        # bound): this test measures the driver's own additions, so autovacuum is kept off its
        # tables (ALTER TABLE cancels a worker already on one).
        off = ("DO $$DECLARE t regclass; BEGIN FOR t IN SELECT relid FROM pg_stat_user_tables "
               "LOOP EXECUTE format('ALTER TABLE %s SET (autovacuum_enabled = false)', t); "
               "END LOOP; END$$")
        r = subprocess.run(["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", u.hostname,
                            "-p", str(u.port), "-U", "postgres", "-d", "sbtest_tpm", "-c", off],
                           capture_output=True, text=True, timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)
        threads = 4
        out = tmp_path("it-xcheck-tpm.json")
        # The connections open at once (10 a second by default).
        r = storebench("oltp", "run", "--workload=tpcc", "--db", url, "--warehouses=1",
                       f"--n_threads={threads}", "--warmup_time=0", "--run_time=1s",
                       "--ramp_rate=1000", "--json", out, timeout=120)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(out) as f:
            doc = json.load(f)
        fig = doc["figures"]
        minutes = fig["et"] / 60
        client = fig["transactions"]
        server = round(fig["tpm_server"] * minutes)
        # The server counts the workload's transactions and, of the driver's own, one per
        # connection (its statements prepared together) and the cross-check reader's few; the
        # delivery thread's and the others' sessions' are not in this database's counters.
        # Before, each connection added some 95 preparation and 60 DEALLOCATE transactions.
        # (The bound is on the driver's own transactions, not a share of the run's: 1 s of run
        # tests it as 5 s did.)
        self.assertGreaterEqual(server, client - 1, fig)
        self.assertLessEqual(server - client, 2 * (threads + 1) + 20, fig)


if __name__ == "__main__":
    harness.main()
