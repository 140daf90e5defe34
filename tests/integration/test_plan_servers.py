"""A plan of six DVD Store instances on six separate servers competing for the host, the way
VMs of a consolidation test do: the three PostgreSQL and three MariaDB instance servers of
`scripts/services.sh start-instances 3`, one plan group per server (a group's URL template
cannot hold different ports). Each instance loads a fresh 1MB database (load = true) and runs
1 s with 2 threads; the result must hold six instance documents whose committed orders match
the new ORDERS rows on their own server, whose verification passed, and whose order counts add
up to the aggregate's.

The servers come from STOREBENCH_PG_URLS / STOREBENCH_MYSQL_URLS (space-separated, as
`scripts/services.sh env` prints them; the database part is replaced by sbtest_plan), else the
default instance ports. Without them the test skips, unless STOREBENCH_REQUIRE_SERVICES=1, when
it fails."""
import concurrent.futures
import json
import os
import socket
import subprocess
import time
import unittest
import urllib.parse

import jsonschema

import harness
from harness import storebench, tmp_path

REQUIRED = os.environ.get("STOREBENCH_REQUIRE_SERVICES") == "1"
DATABASE = "sbtest_plan"
SERVERS = 3  # of each kind
ORDERS_CHECK = "committed_orders_vs_new_orders_rows"


def instance_urls(env):
    """The first SERVERS URLs of `env` (scripts/services.sh env), pointed at the test's
    database; none when it is not set (a test never guesses a server's address)."""
    urls = harness.env_url(env).split()
    out = []
    for url in urls[:SERVERS]:
        u = urllib.parse.urlsplit(url)
        out.append(urllib.parse.urlunsplit((u.scheme, u.netloc, "/" + DATABASE, "", "")))
    return out


def reachable(url):
    u = urllib.parse.urlsplit(url)
    if u.hostname != "127.0.0.1":
        return False  # loopback only
    try:
        with socket.create_connection((u.hostname, u.port), timeout=3):
            return True
    except OSError:
        return False


def run_client(cmd):
    """Runs a database client; returns its output lines, failing with its message."""
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, f"{' '.join(cmd)} failed: {r.stderr}"
    return [l for l in r.stdout.splitlines() if l]


def psql(url, sql, user="storebench", database=DATABASE):
    u = urllib.parse.urlsplit(url)
    return run_client(["psql", "-X", "-A", "-t", "-q", "-v", "ON_ERROR_STOP=1", "-h", u.hostname,
                       "-p", str(u.port), "-U", user, "-d", database, "-c", sql])


def mariadb(url, sql):
    u = urllib.parse.urlsplit(url)
    return run_client(["mariadb", "--no-defaults", "--batch", "--skip-column-names",
                       "-h", u.hostname, "-P", str(u.port), "-u", u.username, "-e", sql])


def reset_database(url):
    """An empty sbtest_plan, so the plan's load = true loads it (PostgreSQL: as the superuser,
    which loopback trusts on these throwaway servers; MariaDB: storebench owns the database)."""
    if url.startswith("postgresql://"):
        psql(url, f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)", "postgres", "postgres")
        psql(url, f"CREATE DATABASE {DATABASE} OWNER storebench", "postgres", "postgres")
        psql(url, "CREATE EXTENSION IF NOT EXISTS pg_stat_statements", "postgres")
    else:
        mariadb(url, f"DROP DATABASE IF EXISTS `{DATABASE}`; CREATE DATABASE `{DATABASE}`")


def group(name, url):
    return (f'[[group]]\nname = "{name}"\ncount = 1\nworkload = "dvdstore"\ndb = "{url}"\n'
            f'load = true\n[group.options]\ndb_size = "1MB"\nn_threads = 2\n')


class PlanServersTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.pg = instance_urls("STOREBENCH_PG_URLS")
        cls.my = instance_urls("STOREBENCH_MYSQL_URLS")
        missing = [u for u in cls.pg + cls.my if not reachable(u)]
        if len(cls.pg) < SERVERS or len(cls.my) < SERVERS or missing:
            msg = (f"the instance servers are not running: the test needs {SERVERS} PostgreSQL "
                   f"and {SERVERS} MariaDB servers on 127.0.0.1, has {cls.pg + cls.my}, "
                   f"and nothing answers at {missing or 'the missing ones'} (start them with "
                   f"scripts/services.sh start-instances {SERVERS}, then "
                   f'eval "$(scripts/services.sh env)")')
            if REQUIRED:
                raise AssertionError("STOREBENCH_REQUIRE_SERVICES=1 but " + msg)
            raise unittest.SkipTest(msg)
        cls.names = [f"pg{i}" for i in range(1, SERVERS + 1)] + \
                    [f"my{i}" for i in range(1, SERVERS + 1)]
        cls.urls = cls.pg + cls.my
        # The six servers at once: each reset waits about a second on its own server (dropping a
        # database), not on the others.
        with concurrent.futures.ThreadPoolExecutor(len(cls.urls)) as pool:
            list(pool.map(reset_database, cls.urls))
        # 1 s: every instance needs orders (dozens a second each, 10 or more in 1 s on a loaded
        # machine) and a verify, not a long run (2 s before).
        plan = '[run]\nrun_time = "1s"\nwarmup_time = "0s"\n\n' + "\n".join(
            group(n, u) for n, u in zip(cls.names, cls.urls))
        cls.plan_path = tmp_path("plan-servers.toml")
        with open(cls.plan_path, "w") as fh:
            fh.write(plan)
        cls.json_path = tmp_path("plan-servers.json")
        start = time.monotonic()
        cls.result = storebench("run", "--plan", cls.plan_path, "--json", cls.json_path,
                                timeout=150)
        cls.seconds = time.monotonic() - start
        cls.doc = None
        if cls.result.returncode == 0:
            with open(cls.json_path) as fh:
                cls.doc = json.load(fh)

    def setUp(self):
        self.assertEqual(self.result.returncode, 0, self.result.stdout + self.result.stderr)

    def test_servers_are_separate_and_small(self):
        ports = {urllib.parse.urlsplit(u).port for u in self.urls}
        self.assertEqual(len(ports), 2 * SERVERS, self.urls)
        for url in self.pg:
            self.assertEqual(psql(url, "SHOW shared_buffers"), ["64MB"], url)
        for url in self.my:
            self.assertEqual(mariadb(url, "SELECT @@innodb_buffer_pool_size"),
                             [str(64 << 20)], url)

    def test_every_instance_loaded(self):
        for name in self.names:
            self.assertIn(f"instance {name}_1: loading", self.result.stderr + self.result.stdout)
        self.assertLess(self.seconds, 120, "the plan run took too long")

    def test_six_instances_on_their_servers(self):
        doc = self.doc
        self.assertEqual(doc["schema_version"], 2)
        with open(os.path.join(harness.ARGS.source, "docs", "output-schema.json")) as fh:
            jsonschema.validate(doc, json.load(fh))
        self.assertEqual([i["name"] for i in doc["instances"]], [n + "_1" for n in self.names])
        self.assertEqual([i["target"] for i in doc["instances"]], self.urls)

    def test_each_instance_orders_match_its_server_and_verify_passed(self):
        for inst in self.doc["instances"]:
            with self.subTest(instance=inst["name"]):
                sc = inst["server_check"]
                self.assertNotIn("error", sc)
                cmp = {c["name"]: c for c in sc["comparisons"]}
                orders = cmp[ORDERS_CHECK]
                self.assertGreater(orders["client"], 0, orders)
                self.assertEqual(orders["client"], orders["server"], orders)
                self.assertTrue(orders["passed"], orders)
                self.assertTrue(inst["verify"], "no verification")
                self.assertTrue(all(v["passed"] for v in inst["verify"]), inst["verify"])
                self.assertGreater(inst["figures"]["n_overall"], 0)

    def test_aggregate_is_the_sum_of_the_instances(self):
        for key in ("n_overall", "n_purchase_overall", "n_rollbacks_overall"):
            with self.subTest(figure=key):
                self.assertEqual(self.doc["figures"][key],
                                 sum(i["figures"][key] for i in self.doc["instances"]))
        self.assertTrue(all(v["passed"] for v in self.doc["verify"]), self.doc["verify"])


if __name__ == "__main__":
    harness.main()
