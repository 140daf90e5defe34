"""Each instance of a plan run describes itself: its own server in `environment` (a mixed plan of
SQLite and PostgreSQL), its own first completed unit beside the common start, and a baseline on a
figure its workload does not count (DVD Store's OPM on a sysbench-style instance) is refused
before anything runs."""
import datetime
import json
import os
import shutil
import subprocess
import unittest
import urllib.parse

import harness
from harness import storebench, tmp_path

DATABASE = "sbtest_instance_truth"

GROUPS = """
[[group]]
name = "ds"
workload = "dvdstore"
db = "sqlite://{dir}/ds.db"
load = true
[group.options]
db_size = "1MB"
n_threads = 1
units_per_thread = 20

[[group]]
name = "sb"
workload = "oltp"
db = "{oltp}"
load = true
[group.options]
tables = 1
table_size = 1000
threads = 1
units_per_thread = 20
"""


def wall(iso):
    return datetime.datetime.strptime(iso, "%Y-%m-%dT%H:%M:%S.%fZ")


def fresh_dir(name):
    d = tmp_path(name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    return d


def write_plan(d, run, oltp):
    path = os.path.join(d, "plan.toml")
    with open(path, "w") as f:
        f.write('[run]\nwarmup_time = "0s"\nrun_time = "5m"\n' + run + GROUPS.format(dir=d,
                                                                                   oltp=oltp))
    return path


class InstanceTruthSqliteTest(unittest.TestCase):
    def test_an_opm_baseline_on_an_oltp_instance_is_refused(self):
        d = fresh_dir("it-truth-opm")
        plan = write_plan(d, 'baseline = "opm>=1@run"\n', f"sqlite://{d}/sb.db")
        r = storebench("run", "--plan", plan, "--json", os.path.join(d, "r.json"))
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("instance sb_1", r.stderr)
        self.assertIn("opm>=1@run", r.stderr)
        self.assertIn("DVD Store's orders per minute", r.stderr)
        self.assertIn("transactions_per_minute", r.stderr)  # what the instance does count
        # Refused before any database was loaded.
        self.assertFalse(os.path.exists(os.path.join(d, "ds.db")))
        self.assertFalse(os.path.exists(os.path.join(d, "r.json")))
        # consolidate refuses it too, before its first run.
        r = storebench("consolidate", "--plan", plan, "--instances", "1",
                       "--search", os.path.join(d, "s.json"))
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("DVD Store's orders per minute", r.stderr)

    def test_every_instance_records_its_first_unit(self):
        d = fresh_dir("it-truth-first-unit")
        plan = write_plan(d, "", f"sqlite://{d}/sb.db")
        out = os.path.join(d, "r.json")
        r = storebench("run", "--plan", plan, "--json", out, timeout=300)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(out) as f:
            doc = json.load(f)
        firsts = []
        for inst in doc["instances"]:
            self.assertEqual(inst["started_at"], doc["started_at"])  # the common start
            self.assertGreaterEqual(inst["first_unit_sec"], 0)
            self.assertGreaterEqual(inst["first_unit_at"], doc["started_at"])  # ISO text order
            self.assertLessEqual(inst["first_unit_at"], doc["ended_at"])
            firsts.append((inst["first_unit_sec"], inst["first_unit_at"]))
        self.assertEqual((doc["first_unit_sec"], doc["first_unit_at"]), min(firsts))
        # Both figures place the instances alike: their wall-clock gap is their gap after Start
        # (to the millisecond the time stamps keep).
        (a_sec, a_at), (b_sec, b_at) = firsts
        gap_at = (wall(b_at) - wall(a_at)).total_seconds()
        self.assertLessEqual(abs(gap_at - (b_sec - a_sec)), 0.0021, firsts)
        # Both instances are SQLite here: each names its own file system and server.
        for inst in doc["instances"]:
            self.assertEqual(inst["environment"]["db.product"], "SQLite")
            self.assertIn("filesystem", inst["environment"])


class InstanceTruthServersTest(unittest.TestCase):
    def test_a_mixed_plan_describes_each_server(self):
        pg = harness.server_url("STOREBENCH_PG_URL", DATABASE)
        harness.require_server(self, pg)
        u = urllib.parse.urlsplit(pg)
        # A database of this test's own on the shared server (others use theirs meanwhile).
        for sql in (f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)",
                    f"CREATE DATABASE {DATABASE}"):
            p = subprocess.run(["psql", "-X", "-q", "-h", u.hostname, "-p", str(u.port), "-U",
                                u.username, "-d", "postgres", "-c", sql],
                               capture_output=True, text=True, timeout=60)
            self.assertEqual(p.returncode, 0, p.stderr)
        d = fresh_dir("it-truth-mixed")
        plan = write_plan(d, "", pg)
        out = os.path.join(d, "r.json")
        r = storebench("run", "--plan", plan, "--json", out, timeout=300)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(out) as f:
            doc = json.load(f)
        ds, sb = doc["instances"]
        gap_at = (wall(sb["first_unit_at"]) - wall(ds["first_unit_at"])).total_seconds()
        self.assertLessEqual(abs(gap_at - (sb["first_unit_sec"] - ds["first_unit_sec"])), 0.0021)
        self.assertEqual(ds["environment"]["db.product"], "SQLite")
        self.assertEqual(sb["environment"]["db.product"], "PostgreSQL")
        self.assertTrue(sb["environment"]["db.version"])
        self.assertNotEqual(ds["environment"]["db.version"], sb["environment"]["db.version"])
        # Each has its own server's settings (SQLite's pragmas, PostgreSQL's settings).
        ds_settings = {k for k in ds["environment"] if k.startswith("db.setting.")}
        sb_settings = {k for k in sb["environment"] if k.startswith("db.setting.")}
        self.assertTrue(ds_settings and sb_settings)
        self.assertNotEqual(ds_settings, sb_settings)
        # The aggregate says there were two servers, not that it was the first one.
        self.assertEqual(doc["environment"]["db.product"], "SQLite, PostgreSQL")
        self.assertFalse([k for k in doc["environment"] if k.startswith("db.setting.")])


if __name__ == "__main__":
    harness.main()
