"""Many instances on real SQLite files: a plan run, DVD Store 3's target list, a consolidation
search whose peak is decided by counts of completed orders (never by timing), its resume after an
interruption, and the refusals that name the plan's file and line or the instance."""
import json
import os
import shutil
import signal
import subprocess
import time
import unittest

import jsonschema

import harness
from harness import storebench, tmp_path


def fresh_dir(name):
    d = tmp_path(name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    return d


_LOADED = None


def loaded_1mb():
    """A DVD Store 1MB SQLite file loaded once for the file's cases, which copy it (a load took
    ~3 s of CPU on the loaded machine, and the cases needed four)."""
    global _LOADED
    if _LOADED is None:
        path = tmp_path("it-consolidate-loaded-1MB.db")
        harness.remove_sqlite(path)
        r = storebench("oltp", "load", "--db", "sqlite://" + path, "--db_size", "1MB")
        assert r.returncode == 0, r.stderr
        assert not os.path.exists(path + "-wal"), "the load left a write-ahead log"
        _LOADED = path
    return _LOADED


# Four threads spread over the instances (DVD Store 3's target list), 10 orders per thread: one
# instance completes 40 orders, two complete 20 each, three 20/10/10, four 10 each. The rule
# "units>=20@run" (orders completed in the measured window) passes at 1 and 2 and fails at 3
# and 4, whatever the machine's speed. (A run's time is mostly its orders', and the cases run
# some twenty of them: 25 orders per thread took 1.3 s of orders a run at load average 17, 50
# twice that.) search_depth = 20 (500 by default): the review browses of 500 rows were most of
# an order's time (an order-limited run ends once its orders are done, or with --power at the
# next whole second); the counts, not what an order reads, decide every verdict here.
SEARCH_DEPTH = 20
PLAN = """
[run]
warmup_time = "0s"
run_time = "5m"          # the orders per thread end each run long before
baseline = "units>=20@run"

[[group]]
name = "ds3"
count = 3
db = "sqlite://{dir}/ds3_{{i}}.db"
load = true
spread_threads = 4
[group.options]
db_size = "1MB"
units_per_thread = 10
search_depth = {search_depth}
ramp_rate = 1000         # all threads connected at once (10 a second by default: 0.3 s a run)
"""

# Copies of the same databases run for a time (2 s), judged on a window inside the run; power
# from a command that prints watts. A think time per order (mean 10 ms): the case needs orders
# in the window, not a busy core per instance for its 6 s of runs, which run beside the other
# cases (copies of their own: a run locks its databases).
PLAN_TIMED = """
[[group]]
name = "ds3"
count = 3
db = "sqlite://{dir}/timed_{{i}}.db"
[group.options]
db_size = "1MB"
n_threads = 1
search_depth = {search_depth}
ramp_rate = 1000
think_time = 0.01
"""


def timed_search_started(plan, search, *extra):
    """Starts a short search at 2 instances, three runs of 2 s judged on the window 1s-2s;
    returns its future (the CompletedProcess) and its CSV file."""
    csv = search[:-len(".json")] + ".csv"
    r = harness.storebench_started(
        "consolidate", "--plan", plan, "--instances", "2", "--runs", "3", "--warmup_time=0",
        "--run_time=2s", "--baseline=opm>=1@1s-2s", "--power", "cmd:echo 150", "--search",
        search, "--csv", csv, *extra, timeout=300)
    return r, csv


def window_named(doc, label):
    return next(w for w in doc["windows"] if w["label"] == label)


class ConsolidateSqliteTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = fresh_dir("it-consolidate")
        cls.plan = os.path.join(cls.dir, "plan.toml")
        with open(cls.plan, "w") as f:
            f.write(PLAN.format(dir=cls.dir, search_depth=SEARCH_DEPTH))
        with open(os.path.join(harness.ARGS.source, "docs", "output-schema.json")) as f:
            cls.schema = json.load(f)
        # The first plan run loads the missing database ds3_1 (the plan says load = true) and
        # runs on ds3_2 and ds3_3 as they are: copies of one load (the plan loading all three
        # took three loads' time; loading a missing one is what its load = true does).
        # ds3_4, which only the search at 4 instances runs, is a copy too (that search loaded
        # it).
        for i in (2, 3, 4):
            shutil.copyfile(loaded_1mb(), os.path.join(cls.dir, f"ds3_{i}.db"))
        r = storebench("run", "--plan", cls.plan, "--json", os.path.join(cls.dir, "load.json"),
                       timeout=300)
        assert r.returncode in (0, 1), r.stderr
        assert "instance ds3_1: loading" in r.stderr, r.stderr
        assert "instance ds3_2: loading" not in r.stderr, r.stderr
        # The timed search (its runs mostly wait out their 2 s) starts now on copies of its
        # own; its case asserts on it.
        for i in (1, 2, 3):
            shutil.copyfile(loaded_1mb(), os.path.join(cls.dir, f"timed_{i}.db"))
        cls.timed_plan = os.path.join(cls.dir, "timed.toml")
        with open(cls.timed_plan, "w") as f:
            f.write(PLAN_TIMED.format(dir=cls.dir, search_depth=SEARCH_DEPTH))
        cls.timed_search = os.path.join(cls.dir, "timed-search.json")
        cls.timed_run, cls.timed_csv = timed_search_started(cls.timed_plan, cls.timed_search)

    @classmethod
    def tearDownClass(cls):
        cls.timed_run.result()

    def test_plan_run_loads_missing_databases_and_judges_every_instance(self):
        out = os.path.join(self.dir, "plan-run.json")
        r = storebench("run", "--plan", self.plan, "--json", out, timeout=300)
        # ds3_2 and ds3_3 complete 10 orders each: the baseline fails, exit 1.
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn("baseline failed", r.stderr)
        with open(out) as f:
            doc = json.load(f)
        jsonschema.validate(doc, self.schema)
        names = [i["name"] for i in doc["instances"]]
        self.assertEqual(names, ["ds3_1", "ds3_2", "ds3_3"])
        orders = [i["operations"][0]["count"] for i in doc["instances"]]
        self.assertEqual(orders, [20, 10, 10])
        # The aggregate is the exact merge of the instances.
        self.assertEqual(doc["operations"][0]["count"], sum(orders))
        self.assertEqual(doc["workers"]["started"], 4)
        verdicts = [i["baselines"][0]["passed"] for i in doc["instances"]]
        self.assertEqual(verdicts, [True, False, False])
        b = doc["baselines"][0]
        self.assertFalse(b["passed"])
        self.assertEqual(b["measured"], 10)
        self.assertIn(b["decided_by"], ("ds3_2", "ds3_3"))
        # Each instance verified its own database: committed orders = new ORDERS rows there.
        for inst in doc["instances"]:
            self.assertTrue(all(c["passed"] for c in inst["verify"]), inst["verify"])
        # Every instance's database file exists (ds3_1 loaded by setUpClass's plan run because
        # the plan said load = true; ds3_2 and ds3_3 copies of a load).
        for i in (1, 2, 3):
            self.assertTrue(os.path.getsize(os.path.join(self.dir, f"ds3_{i}.db")) > 0)

    def test_target_list_runs_n_threads_per_target(self):
        dbs = ";".join(f"sqlite://{self.dir}/ds3_{i}.db" for i in (1, 2, 3))
        out = os.path.join(self.dir, "target-list.json")
        r = storebench("oltp", "run", "--db", dbs, "--db_size", "1MB", "--n_threads", "2",
                       "--units_per_thread", "10", "--search_depth", str(SEARCH_DEPTH),
                       "--ramp_rate", "1000", "--warmup_time", "0", "--run_time", "5m",
                       "--json", out, timeout=300)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(out) as f:
            doc = json.load(f)
        # As DVD Store 3: n_threads on every target (6 threads in all).
        self.assertEqual([i["workers"]["started"] for i in doc["instances"]], [2, 2, 2])
        self.assertEqual([i["operations"][0]["count"] for i in doc["instances"]], [20, 20, 20])
        self.assertEqual(doc["operations"][0]["count"], 60)
        # The whole run's Final line, then one per target under DS3's heading.
        self.assertEqual(r.stdout.count("Final ("), 1)
        self.assertEqual(r.stdout.count("\nFinal: et="), 3)

    def test_search_finds_the_peak_and_resumes(self):
        search = os.path.join(self.dir, "search.json")
        r = storebench("consolidate", "--plan", self.plan, "--instances", "1..4", "--runs", "1",
                       "--step", "doubling", "--search", search, timeout=600)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(search) as f:
            s = json.load(f)
        self.assertTrue(s["finished"])
        self.assertEqual(s["peak"], 2)
        # Doubling: 1, 2, 4 (fails), then bisecting between 2 and 4: 3 (fails).
        self.assertEqual([c["count"] for c in s["counts"]], [1, 2, 4, 3])
        self.assertEqual([c["passed"] for c in s["counts"]], [True, True, False, False])
        self.assertIn("peak: 2 instance(s)", r.stdout)
        self.assertIn("0 of 1 at 3", r.stdout)
        # The median run's per-instance figures: 1 instance completes 40 orders, 2 split it.
        for c in s["counts"]:
            for run in c["runs"]:
                self.assertTrue(os.path.exists(run["result_file"]), run)
        figures = {c["count"]: c["runs"][0]["deciding_figure"] for c in s["counts"]}
        self.assertEqual(figures, {1: 40, 2: 20, 4: 10, 3: 10})

        # Interrupt a linear search of three runs per count while it runs, then resume it.
        search2 = os.path.join(self.dir, "search2.json")
        args = [harness.ARGS.binary, "consolidate", "--plan", self.plan, "--instances", "1..3",
                "--runs", "3", "--search", search2]
        p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.time() + 120
        while time.time() < deadline:
            if os.path.exists(search2):
                with open(search2) as f:
                    partial = json.load(f)
                if sum(len(c["runs"]) for c in partial["counts"]) >= 2:
                    break
            time.sleep(0.2)
        p.send_signal(signal.SIGINT)
        _, err = p.communicate(timeout=120)
        self.assertEqual(p.returncode, 130, err)
        self.assertIn("--resume", err)
        with open(search2) as f:
            partial = json.load(f)
        self.assertFalse(partial["finished"])
        done_before = sum(len(c["runs"]) for c in partial["counts"])
        self.assertGreaterEqual(done_before, 2)
        r = storebench("consolidate", "--plan", self.plan, "--instances", "1..3", "--runs", "3",
                       "--search", search2, "--resume", timeout=600)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(search2) as f:
            s2 = json.load(f)
        self.assertTrue(s2["finished"])
        self.assertEqual(s2["peak"], 2)
        self.assertEqual([c["count"] for c in s2["counts"]], [1, 2, 3])
        self.assertEqual([len(c["runs"]) for c in s2["counts"]], [3, 3, 3])
        # The runs done before the interruption were kept, not redone.
        first = partial["counts"][0]["runs"][0]["result_file"]
        self.assertEqual(s2["counts"][0]["runs"][0]["result_file"], first)
        # A resume with other settings is refused.
        r = storebench("consolidate", "--plan", self.plan, "--instances", "1..5", "--runs", "3",
                       "--search", search2, "--resume")
        self.assertEqual(r.returncode, 2, r.stderr)

    def test_per_count_table_is_the_deciding_windows(self):
        search, csv_path = self.timed_search, self.timed_csv
        r = self.timed_run.result()  # started in setUpClass
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(search) as f:
            s = json.load(f)
        c = s["counts"][0]
        row = c["median_run_window"]
        self.assertEqual(row["label"], "1s-2s")
        self.assertEqual(row["runs_passed"], 3)
        # The median run's file: every instance's figure is its figure in the deciding window,
        # which the run measured although only the baseline named it (no --window given).
        with open(c["runs"][c["median_run"]]["result_file"]) as f:
            run = json.load(f)
        per_instance = [window_named(i, "1s-2s")["headlines"]["opm"] for i in run["instances"]]
        self.assertEqual([i["value"] for i in row["instances"]], per_instance)
        self.assertEqual([i["name"] for i in row["instances"]], ["ds3_1", "ds3_2"])
        aggregate = window_named(run, "1s-2s")["headlines"]["opm"]
        self.assertEqual(row["aggregate"], aggregate)
        # Not the whole measured window's figures (0 s to 2 s).
        self.assertNotEqual(row["aggregate"], run["headline"]["value"])
        power = next(w for w in run["power"]["windows"] if w["label"] == "1s-2s")
        self.assertEqual(row["avg_power_w"], 150)
        self.assertEqual(row["avg_power_w"], power["avg_w"])
        self.assertAlmostEqual(row["per_watt"], aggregate / 150)
        self.assertGreaterEqual(row["host_cpu_pct"], 0)
        self.assertLessEqual(row["host_cpu_pct"], 100)
        # The console table and the CSV show the same row.
        with open(csv_path) as f:
            lines = f.read().splitlines()
        self.assertEqual(lines[0].split(","),
                         ["instances", "runs", "runs_passed", "verdict", "window", "opm",
                          "host_cpu_pct", "avg_power_w", "opm_per_watt", "instance_1_opm",
                          "instance_2_opm"])
        cells = lines[1].split(",")
        self.assertEqual(cells[:5], ["2", "3", "3", "PASS", "1s-2s"])
        self.assertEqual([float(x) for x in cells[9:]], per_instance)
        self.assertEqual(float(cells[5]), aggregate)
        self.assertIn("deciding window 1s-2s", r.stdout)
        self.assertIn(f"{round(aggregate)}", r.stdout)

    def test_compare_two_searches(self):
        # Server A and server B as the same databases with more orders per thread in B: A's
        # peak is 2 (as above), B's 3 (three instances: 40, 20 and 20 orders).
        plan_b = os.path.join(self.dir, "plan-b.toml")
        with open(self.plan) as f:
            text = f.read()
        with open(plan_b, "w") as f:
            f.write(text.replace("units_per_thread = 10", "units_per_thread = 20"))
        searches = {}
        for name, plan, watts in (("A", self.plan, "150"), ("B", plan_b, "100")):
            path = os.path.join(self.dir, f"compare-{name}.json")
            r = storebench("consolidate", "--plan", plan, "--instances", "1..3", "--runs", "1",
                           "--power", "cmd:echo " + watts, "--search", path, timeout=600)
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(path) as f:
                searches[name] = (path, json.load(f))
        self.assertEqual(searches["A"][1]["peak"], 2)
        self.assertEqual(searches["B"][1]["peak"], 3)
        out_json = os.path.join(self.dir, "compare-searches.json")
        out_csv = os.path.join(self.dir, "compare-searches.csv")
        r = storebench("compare", "A=" + searches["A"][0], "B=" + searches["B"][0],
                       "--json", out_json, "--csv", out_csv)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("B supported 50.0 % more instances than A (3 against 2)", r.stdout)
        with open(out_json) as f:
            doc = json.load(f)
        self.assertEqual(doc["kind"], "storebench search comparison")
        self.assertEqual((doc["a"]["peak"], doc["b"]["peak"]), (2, 3))

        def row(name, count):
            c = next(c for c in searches[name][1]["counts"] if c["count"] == count)
            return c["median_run_window"]

        # Per watt at each peak, from each search's median run at its peak, and their ratio.
        self.assertEqual(doc["a"]["peak_per_watt"], row("A", 2)["per_watt"])
        self.assertEqual(doc["b"]["peak_per_watt"], row("B", 3)["per_watt"])
        self.assertAlmostEqual(row("A", 2)["per_watt"], row("A", 2)["aggregate"] / 150)
        self.assertAlmostEqual(doc["per_watt_ratio"],
                               row("B", 3)["per_watt"] / row("A", 2)["per_watt"])
        self.assertIn("OPM/W at its peak", r.stdout)
        # Every count's aggregate side by side.
        self.assertEqual([c["count"] for c in doc["counts"]], [1, 2, 3])
        for c in doc["counts"]:
            self.assertEqual(c["a_aggregate"], row("A", c["count"])["aggregate"])
            self.assertEqual(c["b_aggregate"], row("B", c["count"])["aggregate"])
        self.assertEqual([c["a_verdict"] for c in doc["counts"]], ["PASS", "PASS", "FAIL"])
        with open(out_csv) as f:
            self.assertEqual(f.readline().strip(), "instances,A_opm,A_verdict,B_opm,B_verdict")
        # The report draws both searches on one chart.
        html = os.path.join(self.dir, "searches.html")
        r = storebench("report", searches["A"][0], searches["B"][0], "-o", html)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(html) as f:
            page = f.read()
        self.assertIn("data-table='searches-compared'", page)
        self.assertIn("searches-chart", page)
        self.assertIn("-window-table", page)
        # The comparison's own file is not a report input: the message says what is.
        r = storebench("report", out_json, "-o", html)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("give storebench report the two search files", r.stderr)
        # A search and a run are not compared.
        run_file = searches["A"][1]["counts"][0]["runs"][0]["result_file"]
        r = storebench("compare", searches["A"][0], run_file)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("is not a consolidation search file", r.stderr)


class PlanRefusalTest(unittest.TestCase):
    def plan(self, text, name):
        d = fresh_dir("it-plan-refusal-" + name)
        path = os.path.join(d, "plan.toml")
        with open(path, "w") as f:
            f.write(text.format(dir=d))
        return path

    def assertRefused(self, r, *words):
        self.assertEqual(r.returncode, 2, r.stderr)
        lines = r.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, r.stderr)
        for w in words:
            self.assertIn(w, lines[0])

    def test_unknown_option_names_file_line_and_key(self):
        p = self.plan('[[group]]\ndb = "sqlite://{dir}/a.db"\n[group.options]\nn_thraeds = 2\n',
                      "option")
        self.assertRefused(storebench("run", "--plan", p), "plan.toml:4", "n_thraeds")

    def test_run_wide_option_in_a_group_is_refused(self):
        p = self.plan('[[group]]\ndb = "sqlite://{dir}/a.db"\n[group.options]\nrun_time = "1m"\n',
                      "runwide")
        self.assertRefused(storebench("run", "--plan", p), "plan.toml:4", "[run]")

    def test_unknown_workload_names_the_group_line(self):
        p = self.plan('\n[[group]]\nworkload = "tpcx"\ndb = "sqlite://{dir}/a.db"\n', "workload")
        self.assertRefused(storebench("run", "--plan", p), "plan.toml:2", "unknown workload 'tpcx'")

    def test_missing_database_without_load_names_the_instance(self):
        p = self.plan('[[group]]\nname = "x"\ncount = 2\ndb = "sqlite://{dir}/x_{{i}}.db"\n',
                      "missing")
        self.assertRefused(storebench("run", "--plan", p), "instance x_1")

    def test_database_of_another_size_names_the_instance(self):
        d = fresh_dir("it-plan-size")
        db = os.path.join(d, "s.db")
        shutil.copyfile(loaded_1mb(), db)  # a 1MB database
        p = self.plan('[[group]]\nname = "s"\ndb = "sqlite://' + db + '"\n[group.options]\n'
                      'db_size = "2MB"\n', "size")
        self.assertRefused(storebench("run", "--plan", p), "instance s_1")

    def test_empty_instance_range_is_refused(self):
        p = self.plan('[[group]]\ndb = "sqlite://{dir}/a.db"\n', "range")
        self.assertRefused(storebench("consolidate", "--plan", p, "--instances", "4..2"),
                           "empty range")


if __name__ == "__main__":
    harness.main()
