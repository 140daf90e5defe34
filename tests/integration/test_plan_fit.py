"""Plans that fit the databases at hand, on real SQLite files: a group listing its databases (the
i-th instance on the i-th), a plan's load = true loading with the command line's options, and
a consolidation search refused before its first run when a later count cannot run."""
import json
import os
import shutil
import subprocess
import unittest

import harness
from harness import storebench, tmp_path


def fresh_dir(name):
    d = tmp_path(name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    return d


RUN = """
[run]
warmup_time = "0s"
run_time = "5m"          # the orders per thread end each run long before
baseline = "units>=1@run"
"""

# Three databases with names no {i} template reaches (servers on their own ports are the same).
LIST_GROUP = """
[[group]]
name = "list"
db = ["sqlite://{dir}/alpha.db", "sqlite://{dir}/beta.db", "sqlite://{dir}/gamma.db"]
[group.options]
db_size = "1MB"
n_threads = 1
units_per_thread = 5
"""


class PlanFitTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = fresh_dir("it-plan-fit")
        cls.names = ["alpha", "beta", "gamma"]
        for n in cls.names:
            r = storebench("oltp", "load", "--db", f"sqlite://{cls.dir}/{n}.db", "--db_size",
                           "1MB", timeout=300)
            assert r.returncode == 0, r.stderr

    def write(self, name, text):
        path = os.path.join(self.dir, name)
        with open(path, "w") as f:
            f.write(text.format(dir=self.dir))
        return path

    def test_a_list_gives_the_ith_database_to_the_ith_instance(self):
        plan = self.write("list.toml", RUN + LIST_GROUP)
        out = os.path.join(self.dir, "list.json")
        r = storebench("run", "--plan", plan, "--json", out, timeout=300)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(out) as f:
            doc = json.load(f)
        self.assertEqual([i["name"] for i in doc["instances"]], ["list_1", "list_2", "list_3"])
        self.assertEqual([i["target"] for i in doc["instances"]],
                         [f"sqlite://{self.dir}/{n}.db" for n in self.names])
        # Each instance ran on its own database: its orders are that database's new rows.
        for inst in doc["instances"]:
            self.assertEqual(inst["operations"][0]["count"], 5)
            self.assertTrue(all(c["passed"] for c in inst["verify"]), inst["verify"])

    def test_a_search_above_the_list_is_refused_before_any_run(self):
        plan = self.write("list-search.toml", RUN + LIST_GROUP)
        search = os.path.join(self.dir, "above.json")
        r = storebench("consolidate", "--plan", plan, "--instances", "1..4", "--runs", "1",
                       "--search", search, timeout=300)
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn("--instances 4: ", r.stderr)
        self.assertIn("group 'list' lists 3 database(s) in 'db', so it cannot have 4 instances",
                      r.stderr)
        self.assertFalse(os.path.exists(search))
        self.assertFalse(os.path.exists(os.path.join(self.dir, "above-runs", "n1-run1.json")))
        # Within the list the search runs: 1..3.
        r = storebench("consolidate", "--plan", plan, "--instances", "1..3", "--runs", "1",
                       "--search", search, timeout=300)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(search) as f:
            self.assertEqual(json.load(f)["peak"], 3)

    def test_a_missing_database_of_a_later_count_is_refused_before_any_run(self):
        # alpha and beta exist, "delta" does not and the group does not load: count 3 cannot run.
        plan = self.write("missing.toml", RUN + LIST_GROUP.replace("gamma.db", "delta.db"))
        search = os.path.join(self.dir, "missing.json")
        r = storebench("consolidate", "--plan", plan, "--instances", "1..3", "--runs", "1",
                       "--search", search, timeout=300)
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn("--instances 3: instance list_3", r.stderr)
        self.assertIn("delta.db' does not exist", r.stderr)
        self.assertNotIn("consolidate: 1 instance(s), run 1", r.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.dir, "missing-runs", "n1-run1.json")))
        self.assertFalse(os.path.exists(search))
        self.assertFalse(os.path.exists(os.path.join(self.dir, "delta.db")))

    def test_a_database_of_another_size_is_refused_before_any_run(self):
        # gamma holds 1MB; a group that asks for 2MB of it cannot run at count 3.
        plan = self.write("size.toml", RUN + LIST_GROUP + """
[[group]]
name = "big"
db = "sqlite://{dir}/gamma.db"
[group.options]
db_size = "2MB"
""")
        r = storebench("consolidate", "--plan", plan, "--instances", "1..2", "--runs", "1",
                       "--search", os.path.join(self.dir, "size.json"), timeout=300)
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn("instance big_1", r.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.dir, "size-runs", "n1-run1.json")))

    def test_load_true_loads_with_the_command_lines_options(self):
        # No db_size in the plan: the command line's 1MB is what the run asks for, and what the
        # load must load (its default would be S, which the run then refuses).
        plan = self.write("load.toml", RUN + """
[[group]]
name = "fresh"
count = 2
db = "sqlite://{dir}/fresh_{{i}}.db"
load = true
[group.options]
n_threads = 1
units_per_thread = 5
""")
        out = os.path.join(self.dir, "load.json")
        r = storebench("run", "--plan", plan, "--db_size=1MB", "--json", out, timeout=300)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("instance fresh_1: loading DVD Store 3 db_size=1MB", r.stderr)
        self.assertIn("instance fresh_2: loading DVD Store 3 db_size=1MB", r.stderr)
        with open(out) as f:
            doc = json.load(f)
        self.assertEqual([i["config"]["db_size"] for i in doc["instances"]], ["1MB", "1MB"])
        # Loaded now, both are there for the next run without a load.
        r = storebench("run", "--plan", plan, "--db_size=1MB", "--json", out, timeout=300)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertNotIn("loading", r.stderr)

    def test_load_true_loads_with_a_config_files_options(self):
        # DVD Store's DriverConfig.txt given on the command line sets the size as --db_size does.
        plan = self.write("load-config.toml", RUN + """
[[group]]
name = "conf"
db = "sqlite://{dir}/conf.db"
load = true
[group.options]
units_per_thread = 5
""")
        config = self.write("DriverConfig.txt", "db_size=1MB\nn_threads=1\n")
        r = storebench("run", "--plan", plan, "--config_file", config, "--json",
                       os.path.join(self.dir, "load-config.json"), timeout=300)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("instance conf_1: loading DVD Store 3 db_size=1MB", r.stderr)


class InstancePlanTest(unittest.TestCase):
    """scripts/services.sh instance-plan writes groups listing the instance servers' databases;
    read here by the plan parser only (a search above the list stops before any server is
    reached)."""

    def test_instance_plan_lists_each_kind_of_server(self):
        pg = (os.environ.get("STOREBENCH_PG_URLS") or "").split()
        if not pg:
            self.skipTest("no instance servers (scripts/services.sh start-instances 3)")
        script = os.path.join(harness.ARGS.source, "scripts", "services.sh")
        r = subprocess.run([script, "instance-plan"], capture_output=True, text=True,
                           timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)
        if not r.stdout.strip():
            self.skipTest("services.sh sees no instance servers (STOREBENCH_SERVICES_DIR names "
                          "another directory than the one STOREBENCH_PG_URLS came from?)")
        d = fresh_dir("it-instance-plan")
        plan = os.path.join(d, "servers.toml")
        with open(plan, "w") as f:
            f.write(r.stdout + RUN)
        self.assertIn('{ name = "pg", load = true, db = [' + ", ".join(f'"{u}"' for u in pg),
                      r.stdout)
        top = len(pg) + 1
        r = storebench("consolidate", "--plan", plan, "--instances", f"1..{top}",
                       "--search", os.path.join(d, "s.json"), timeout=60)
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn(f"group 'pg' lists {len(pg)} database(s) in 'db', so it cannot have "
                      f"{top} instances", r.stderr)


if __name__ == "__main__":
    harness.main()
