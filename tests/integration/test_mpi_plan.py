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


class MpiPlanNullTest(NeedsMpi, unittest.TestCase):
    def test_a_plan_that_cannot_be_divided_is_refused_once(self):
        plan = tmp_path("it-mpi-plan-two.toml")
        with open(plan, "w") as fh:
            fh.write('[run]\nrun_time = "1s"\n\n[[group]]\nname = "n"\ncount = 2\n'
                     'workload = "noop"\ndb = "null:///n{i}"\n[group.options]\nn_threads = 1\n')
        r = mpirun("run", "--plan", plan, "--rank_split=instances",
                   "--json", tmp_path("it-mpi-plan-two.json"), np=3)
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertEqual(r.stderr.count("mpirun started 3 ranks for 2 instance(s)"), 1, r.stderr)
        self.assertEqual(r.stderr.count("storebench:"), 1, r.stderr)
        # Threads (the default): every rank runs its share of every instance.
        out = tmp_path("it-mpi-plan-threads.json")
        r = mpirun("run", "--plan", plan, "--n_threads", "3", "--warmup_time", "0", "--json", out)
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
        r = mpirun("run", "--plan", plan, "--json", tmp_path("it-mpi-plan-two.json"))
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertEqual(r.stderr.count("mpirun started 2 ranks for 1 threads"), 1, r.stderr)
        # The split is the run's, not a group's.
        with open(plan, "a") as fh:
            fh.write('rank_split = "threads"\n')
        r = mpirun("run", "--plan", plan, "--json", tmp_path("it-mpi-plan-two.json"))
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertEqual(r.stderr.count("applies to the whole run"), 1, r.stderr)


    def test_consolidate_runs_every_step_on_every_rank(self):
        plan = tmp_path("it-mpi-consolidate.toml")
        with open(plan, "w") as fh:
            fh.write('[run]\nrun_time = "1s"\nwarmup_time = "0s"\nbaseline = "ops>=1@run"\n\n'
                     '[[group]]\nname = "n"\ncount = 1\nscale = true\nworkload = "noop"\n'
                     'db = "null:///n{i}"\n[group.options]\nn_threads = 1\n')
        search = tmp_path("it-mpi-consolidate.json")
        runs = tmp_path("it-mpi-consolidate-runs")
        shutil.rmtree(runs, ignore_errors=True)
        r = mpirun("consolidate", "--plan", plan, "--instances", "2..3", "--runs", "1",
                   "--rank_split=instances", "--search", search)
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
        r = mpirun("consolidate", "--plan", plan, "--instances", "1..3", "--runs", "1",
                   "--rank_split=instances", "--search", tmp_path("it-mpi-consolidate-1.json"))
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
        have = self.psql(base, "SELECT string_agg(datname, ' ') FROM pg_database").split()
        # Instances 1 and 3 are kept between runs (loaded by the first); 2 is new every time,
        # so the rank that owns it (rank 1) loads it.
        self.psql(base, f"DROP DATABASE IF EXISTS {DATABASES[1]} WITH (FORCE)")
        for db in DATABASES:
            if db not in have or db == DATABASES[1]:
                self.psql(base, f"CREATE DATABASE {db}")
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
        url = f"{self.server}/{DATABASES[0]}"
        common = ["oltp", "run", "--db", url, "--db_size=1MB", "--n_threads", "2",
                  "--run_time", "2s", "--json", tmp_path("it-mpi-plan-one-fails.json")]
        for bad_rank in (1, 0):
            ok = [mpi_support.mpi_binary(), *common]
            bad = ["env", "PGOPTIONS=-c work_mem=bogus", mpi_support.mpi_binary(), *common]
            apps = (ok, bad) if bad_rank == 1 else (bad, ok)
            cmd = [MPIRUN, "--oversubscribe", "--allow-run-as-root", "-np", "1", *apps[0], ":",
                   "-np", "1", *apps[1]]
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
            self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
            # One error, said once; mpirun then stops the other rank with SIGTERM, whose stop note
            # ("storebench: SIGTERM: stopping; ...") is not an error.
            errors = [line for line in r.stderr.splitlines()
                      if "storebench:" in line and "storebench: SIGTERM" not in line]
            self.assertEqual(len(errors), 1, r.stderr)
            self.assertIn("work_mem", r.stderr)
            if bad_rank == 1:
                self.assertIn("storebench: rank 1 (host", r.stderr)


if __name__ == "__main__":
    harness.main()
