"""Scale-out of a plan (docs/scale-out.md): `mpirun -np 2 storebench-mpi run --plan ...
--rank_split=instances` on this machine. A plan of three DVD Store instances on PostgreSQL
gives one result whose per-instance orders are each database's new ORDERS rows, whose
aggregate is their sum, and whose per-rank section says which rank ran which instance; the rank
that owns an instance loads it; a rank whose connections the server ends reconnects as a run of
one process does. A plan that cannot be divided, and a failure on one rank alone before the
run, end every rank with exit 2 and one message. Skipped (exit 77) only when storebench-mpi was
not built (no Open MPI) or mpirun is missing.
"""
import json
import os
import shutil
import subprocess
import time
import unittest
import urllib.parse

import harness
import mpi_support
from mpi_support import MPIRUN, NeedsMpi
from harness import tmp_path

DATABASES = [f"sbtest_mpi_plan_{i}" for i in (1, 2, 3)]


def mpirun(*args, np=2, **kwargs):
    return mpi_support.mpirun(*args, np=np, **kwargs)


def figures(doc):
    f = doc["figures"]
    return dict(f) if isinstance(f, list) else f


def null_runs():
    """The null plans' mpiruns, started together (each mostly waits: its ranks' start-up, a
    run's second): {name: future of its CompletedProcess}. The noop workers think 1 ms after
    each unit: on the null back end they would spin on the cores the other ranks need, and
    every assertion is on counts."""
    plan = tmp_path("it-mpi-plan-two.toml")
    two = ('[run]\nrun_time = "1s"\n\n[[group]]\nname = "n"\ncount = 2\n'
           'workload = "noop"\ndb = "null:///n{i}"\n[group.options]\nn_threads = 1\n'
           'think_time = 0.001\n')
    with open(plan, "w") as fh:
        fh.write(two)
    # The split is the run's, not a group's: the same plan with one in its group.
    group_split = tmp_path("it-mpi-plan-group-split.toml")
    with open(group_split, "w") as fh:
        fh.write(two + 'rank_split = "threads"\n')
    consolidate = tmp_path("it-mpi-consolidate.toml")
    with open(consolidate, "w") as fh:
        fh.write('[run]\nrun_time = "1s"\nwarmup_time = "0s"\nbaseline = "ops>=1@run"\n\n'
                 '[[group]]\nname = "n"\ncount = 1\nscale = true\nworkload = "noop"\n'
                 'db = "null:///n{i}"\n[group.options]\nn_threads = 1\nthink_time = 0.001\n')
    shutil.rmtree(tmp_path("it-mpi-consolidate-runs"), ignore_errors=True)
    started = {
        "instances_refused": (("run", "--plan", plan, "--rank_split=instances",
                               "--json", tmp_path("it-mpi-plan-two.json")), 3),
        "threads": (("run", "--plan", plan, "--n_threads", "3", "--warmup_time", "0",
                     "--json", tmp_path("it-mpi-plan-threads.json")), 2),
        "one_thread": (("run", "--plan", plan, "--json", tmp_path("it-mpi-plan-one.json")), 2),
        "group_split": (("run", "--plan", group_split,
                         "--json", tmp_path("it-mpi-plan-group-split.json")), 2),
        "consolidate": (("consolidate", "--plan", consolidate, "--instances", "2..3", "--runs",
                         "1", "--rank_split=instances", "--search",
                         tmp_path("it-mpi-consolidate.json")), 2),
        "consolidate_refused": (("consolidate", "--plan", consolidate, "--instances", "1..3",
                                 "--runs", "1", "--rank_split=instances", "--search",
                                 tmp_path("it-mpi-consolidate-1.json")), 2),
    }
    return {name: mpi_support.call_in_background(mpirun, *args, np=np)
            for name, (args, np) in started.items()}


class MpiPlanNullTest(NeedsMpi, unittest.TestCase):
    """The cases' mpiruns start in setUpModule (null_runs) and each case asserts on its own."""

    def test_a_plan_that_cannot_be_divided_is_refused_once(self):
        r = RUNS["instances_refused"].result()
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertEqual(r.stderr.count("mpirun started 3 ranks for 2 instance(s)"), 1, r.stderr)
        self.assertEqual(r.stderr.count("storebench:"), 1, r.stderr)
        # Threads (the default): every rank runs its share of every instance.
        out = tmp_path("it-mpi-plan-threads.json")
        r = RUNS["threads"].result()
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        with open(out) as fh:
            doc = json.load(fh)
        per = doc["scale_out"]["per_rank"]
        self.assertEqual(doc["scale_out"]["rank_split"], "threads")
        self.assertEqual([p["instances"] for p in per], [["n_1", "n_2"], ["n_1", "n_2"]])
        self.assertEqual([p["threads"] for p in per], [4, 2])  # 2 + 2, then 1 + 1
        counts = [i["operations"][0]["count"] for i in doc["instances"]]
        self.assertEqual(sum(p["units"] for p in per), sum(counts))
        self.assertEqual(doc["operations"][0]["count"], sum(counts))
        # Threads: one thread per instance cannot be shared by two ranks.
        r = RUNS["one_thread"].result()
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertEqual(r.stderr.count("mpirun started 2 ranks for 1 threads"), 1, r.stderr)
        # The split is the run's, not a group's.
        r = RUNS["group_split"].result()
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertEqual(r.stderr.count("applies to the whole run"), 1, r.stderr)

    def test_consolidate_runs_every_step_on_every_rank(self):
        search = tmp_path("it-mpi-consolidate.json")
        runs = tmp_path("it-mpi-consolidate-runs")
        r = RUNS["consolidate"].result()
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        with open(search) as fh:
            doc = json.load(fh)
        self.assertEqual(sorted(c["count"] for c in doc["counts"]), [2, 3])
        self.assertEqual(doc["peak"], 3)
        # Each step is one plan run divided among the ranks, with its own per-rank figures.
        expected = {2: [["n_1"], ["n_2"]], 3: [["n_1", "n_3"], ["n_2"]]}
        for n, split in expected.items():
            with open(os.path.join(runs, f"n{n}-run1.json")) as fh:
                run = json.load(fh)
            per = run["scale_out"]["per_rank"]
            self.assertEqual([p["instances"] for p in per], split)
            counts = {i["name"]: i["operations"][0]["count"] for i in run["instances"]}
            self.assertEqual(run["operations"][0]["count"], sum(counts.values()))
            for p in per:
                self.assertEqual(p["units"], sum(counts[name] for name in p["instances"]))
        # A range whose first count has fewer instances than ranks is refused before it runs.
        r = RUNS["consolidate_refused"].result()
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertEqual(r.stderr.count("--instances 1: mpirun started 2 ranks for 1 instance(s)"),
                         1, r.stderr)
        self.assertEqual(r.stderr.count("storebench:"), 1, r.stderr)


class MpiPlanPostgresTest(NeedsMpi, unittest.TestCase):
    def setUp(self):
        self.base = harness.env_url("STOREBENCH_PG_URL")
        harness.require_server(self, self.base)
        u = urllib.parse.urlsplit(self.base)
        self.server = urllib.parse.urlunsplit((u.scheme, u.netloc, "", "", ""))

    def psql(self, database, sql):
        u = urllib.parse.urlsplit(self.base)
        url = urllib.parse.urlunsplit((u.scheme, u.netloc, "/" + database, u.query, ""))
        r = subprocess.run(["psql", "-X", "-A", "-t", "-q", "-v", "ON_ERROR_STOP=1", "-d", url,
                            "-c", sql], capture_output=True, text=True, timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)
        return r.stdout.strip()

    def base_db(self):
        return urllib.parse.urlsplit(self.base).path.lstrip("/")

    def orders(self, database):
        return int(self.psql(database, "SELECT count(*) FROM orders"))

    def test_plan_divided_among_ranks_merges_every_instance(self):
        base = self.base_db()
        # The databases made (and 1 and 3 loaded when new) in setUpModule.
        self.assertEqual(PG_PREPARED.result(), [])
        plan = tmp_path("it-mpi-plan-pg.toml")
        with open(plan, "w") as fh:
            # 3 s: orders before the connections are ended 1 s in, the reconnection and orders
            # after it (6 s before).
            fh.write('[run]\nrun_time = "3s"\nwarmup_time = "0s"\n\n[[group]]\nname = "pg"\n'
                     f'count = 3\nworkload = "dvdstore"\n'
                     f'db = "{self.server}/sbtest_mpi_plan_{{i}}"\nload = true\n'
                     '[group.options]\ndb_size = "1MB"\nn_threads = 2\n')
        before = {}
        for db in (DATABASES[0], DATABASES[2]):
            exists = self.psql(db, "SELECT to_regclass('orders') IS NOT NULL")
            before[db] = self.orders(db) if exists == "t" else None
        out = tmp_path("it-mpi-plan-pg.json")
        if os.path.exists(out):
            os.remove(out)
        p = mpi_support.start("run", "--plan", plan, "--rank_split=instances", "--json", out,
                              np=2, wait_seconds=240)
        time.sleep(1)
        # The server ends rank 1's connections to its instance (a database of this test only).
        killed = int(self.psql(base, "SELECT count(pg_terminate_backend(pid)) FROM "
                                     f"pg_stat_activity WHERE datname = '{DATABASES[1]}'"))
        stdout, stderr = p.communicate(timeout=240)
        self.assertEqual(p.returncode, 0, stdout + stderr)
        self.assertGreaterEqual(killed, 2, "rank 1's two workers were not connected")
        with open(out) as fh:
            doc = json.load(fh)
        so = doc["scale_out"]
        self.assertEqual(so["rank_split"], "instances")
        self.assertTrue(so["complete"], so)
        per = so["per_rank"]
        self.assertEqual([p["instances"] for p in per], [["pg_1", "pg_3"], ["pg_2"]])
        self.assertEqual([p["threads"] for p in per], [4, 2])
        inst = {i["name"]: i for i in doc["instances"]}
        purchases = {n: figures(i)["n_purchase_overall"] for n, i in inst.items()}
        self.assertTrue(all(v > 0 for v in purchases.values()), purchases)
        # The aggregate is the sum of the instances, and each rank's own units are its
        # instances'.
        self.assertEqual(figures(doc)["n_purchase_overall"], sum(purchases.values()))
        self.assertEqual(per[0]["units"], purchases["pg_1"] + purchases["pg_3"])
        self.assertEqual(per[1]["units"], purchases["pg_2"])
        # Each instance's committed orders (whole run) are its database's new ORDERS rows.
        for name, db in (("pg_1", DATABASES[0]), ("pg_3", DATABASES[2])):
            checks = {c["name"]: c for c in inst[name]["verify"]}
            self.assertTrue(checks["committed_orders_match"]["passed"], checks)
            if before[db] is not None:
                grew = self.orders(db) - before[db]
                self.assertGreater(grew, 0)
                self.assertEqual(checks["committed_orders_match"]["detail"],
                                 f"client committed {grew} orders, ORDERS grew by {grew} rows")
        # Rank 1 loaded pg_2 (rank 0 did not: its console says nothing of it), and its workers
        # reconnected after the server ended their connections; pg_2 still verifies.
        self.assertNotIn("instance pg_2: loading", stderr)
        self.assertGreater(self.orders(DATABASES[1]), 0)
        self.assertGreaterEqual(inst["pg_2"]["counters"]["reconnects"], 1, inst["pg_2"])
        self.assertEqual(inst["pg_1"]["counters"].get("reconnects", 0), 0)
        self.assertTrue(all(c["passed"] for c in inst["pg_2"]["verify"]), inst["pg_2"]["verify"])

        # A failure on one rank alone before the run (its server refuses its session setting)
        # ends every rank with exit 2; rank 0 prints it once, naming the rank.
        # Side by side, each on its own database (a rank that started locks it).
        runs = {bad_rank: mpi_support.call_in_background(one_rank_fails, self.server, db,
                                                         bad_rank)
                for bad_rank, db in ((1, DATABASES[0]), (0, DATABASES[2]))}
        for bad_rank, run in runs.items():
            r = run.result()
            self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
            # One error, said once; mpirun then stops the other rank with SIGTERM, whose stop note
            # ("storebench: SIGTERM: stopping; ...") is not an error.
            errors = [line for line in r.stderr.splitlines()
                      if "storebench:" in line and "storebench: SIGTERM" not in line]
            self.assertEqual(len(errors), 1, r.stderr)
            self.assertIn("work_mem", r.stderr)
            if bad_rank == 1:
                self.assertIn("storebench: rank 1 (host", r.stderr)


def one_rank_fails(server, database, bad_rank):
    """A run on two ranks of which `bad_rank` alone fails before the run (its server refuses
    its session setting)."""
    url = f"{server}/{database}"
    common = ["oltp", "run", "--db", url, "--db_size=1MB", "--n_threads", "2",
              "--run_time", "2s", "--json", tmp_path(f"it-mpi-plan-one-fails-{bad_rank}.json")]
    ok = [mpi_support.mpi_binary(), *common]
    bad = ["env", "PGOPTIONS=-c work_mem=bogus", mpi_support.mpi_binary(), *common]
    apps = (ok, bad) if bad_rank == 1 else (bad, ok)
    cmd = [MPIRUN, "--oversubscribe", "--allow-run-as-root", "-np", "1", *apps[0], ":",
           "-np", "1", *apps[1]]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


def psql(base, database, sql):
    """psql -c `sql` on `database` of the server of URL `base`: its CompletedProcess."""
    u = urllib.parse.urlsplit(base)
    url = urllib.parse.urlunsplit((u.scheme, u.netloc, "/" + database, u.query, ""))
    return subprocess.run(["psql", "-X", "-A", "-t", "-q", "-v", "ON_ERROR_STOP=1", "-d", url,
                           "-c", sql], capture_output=True, text=True, timeout=60)


def pg_prepare(base):
    """The plan's databases: instance 2's new (the rank that owns it loads it in the run); 1
    and 3 kept between runs, made and loaded here when missing (as the plan's load = true
    would, but beside the null cases' runs instead of in the PostgreSQL case's time). Returns
    what failed (empty: nothing)."""
    u = urllib.parse.urlsplit(base)
    server = urllib.parse.urlunsplit((u.scheme, u.netloc, "", "", ""))
    base_db = u.path.lstrip("/")
    r = psql(base, base_db, "SELECT string_agg(datname, ' ') FROM pg_database")
    if r.returncode != 0:
        return [r.stderr]
    have = r.stdout.split()
    steps = [(base_db, f"DROP DATABASE IF EXISTS {DATABASES[1]} WITH (FORCE)"),
             (base_db, f"CREATE DATABASE {DATABASES[1]}")]
    new = [db for db in (DATABASES[0], DATABASES[2]) if db not in have]
    steps += [(base_db, f"CREATE DATABASE {db}") for db in new]
    for database, sql in steps:
        r = psql(base, database, sql)
        if r.returncode != 0:
            return [r.stderr]
    loads = [harness.storebench_started("oltp", "load", "--db", f"{server}/{db}",
                                        "--db_size=1MB") for db in new]
    return [r.stdout + r.stderr for r in (load.result() for load in loads) if r.returncode != 0]


# What setUpModule started for the cases (when storebench-mpi was built).
RUNS = {}
PG_PREPARED = None


def setUpModule():
    global RUNS, PG_PREPARED
    if not mpi_support.built_with_mpi():
        return
    base = harness.env_url("STOREBENCH_PG_URL")
    if harness.reachable(base):
        PG_PREPARED = mpi_support.call_in_background(pg_prepare, base)
    RUNS = null_runs()


def tearDownModule():
    for run in [*RUNS.values(), *([PG_PREPARED] if PG_PREPARED else [])]:
        run.exception()  # a case that failed first leaves no mpirun behind


if __name__ == "__main__":
    harness.main()
