"""storebench compare, exec and ab on real result files, and the refusals of bad input (exit 2
with the file named)."""
import json
import os
import unittest

import check_schema
import harness
import report_fixtures as fx


def write(name, text):
    path = harness.tmp_path(name)
    with open(path, "w") as f:
        f.write(text)
    return path


class CompareCommandTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.base = fx.run_noop("ce_base", "base")

    def constructed(self, prefix, label, values):
        return [fx.with_headline(self.base, f"{prefix}{i}", label, v)
                for i, v in enumerate(values)]

    def test_groups_by_label_with_known_medians_and_ratio(self):
        files = self.constructed("ce_a", "A", (100, 120, 110)) + \
            self.constructed("ce_b", "B", (150, 130, 140))
        out_json = harness.tmp_path("ce_cmp.json")
        out_csv = harness.tmp_path("ce_cmp.csv")
        p = harness.storebench("compare", *files, "--json", out_json, "--csv", out_csv)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(out_json) as f:
            doc = json.load(f)
        self.assertEqual(doc["kind"], "storebench comparison")
        m = next(x for x in doc["metrics"] if x["name"] == "ops_per_minute")
        self.assertEqual([g["label"] for g in m["groups"]], ["A", "B"])
        self.assertEqual(m["groups"][0]["median"], 110)
        self.assertEqual(m["groups"][1]["median"], 140)
        self.assertAlmostEqual(m["pairs"][0]["ratio"], 140 / 110, places=12)
        self.assertGreater(m["pairs"][0]["ci_low"], 1.0)
        self.assertEqual(m["pairs"][0]["verdict"], "higher")
        self.assertIn("B/A = 1.2727", p.stdout)
        # One screen by default: the key metrics; every percentile of every type with --verbose.
        self.assertLess(len(p.stdout.splitlines()), 25, p.stdout)
        self.assertNotIn("p50_ms.", p.stdout)
        self.assertIn("more metrics", p.stdout)
        v = harness.storebench("compare", *files, "--verbose")
        self.assertEqual(v.returncode, 0, v.stderr)
        self.assertIn("p50_ms.", v.stdout)
        self.assertIn("B/A = 1.2727", v.stdout)
        self.assertNotIn("more metrics", v.stdout)
        with open(out_csv) as f:
            rows = f.read().splitlines()
        self.assertTrue(rows[0].startswith("metric,group,runs,median"))
        self.assertIn("ops_per_minute,A,3,110,100,120,110,", "\n".join(rows))

    def test_globs_name_the_groups(self):
        self.constructed("ce_glob_x", "same", (100, 101))
        self.constructed("ce_glob_y", "same", (200, 201))
        p = harness.storebench("compare", "X=" + harness.tmp_path("ce_glob_x*.json"),
                               "Y=" + harness.tmp_path("ce_glob_y*.json"))
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("Y/X = 1.9", p.stdout)

    def test_single_run_per_group_has_no_interval(self):
        files = self.constructed("ce_one_a", "A", (100,)) + self.constructed("ce_one_b", "B", (120,))
        p = harness.storebench("compare", *files)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("no interval: group 'A' has 1 run(s)", p.stdout)

    def test_refusals(self):
        a = self.constructed("ce_r_a", "A", (100, 110))
        nolabel = fx.with_headline(self.base, "ce_nolabel", "", 100)
        with open(nolabel) as f:
            d = json.load(f)
        d.pop("label")
        with open(nolabel, "w") as f:
            json.dump(d, f)
        other = fx.with_headline(self.base, "ce_other", "B", 100)
        with open(other) as f:
            d = json.load(f)
        d["config"]["run_time"] = 999.0
        with open(other, "w") as f:
            json.dump(d, f)
        with open(self.base) as f:
            text = f.read()
        newer = write("ce_newer.json", text.replace('"schema_version": 2', '"schema_version": 3', 1))
        truncated = write("ce_truncated.json", text[: len(text) // 2])
        foreign = write("ce_foreign.json", '{"results": [{"command": "sleep 1", "mean": 1.0}]}')
        notjson = write("ce_notjson.json", "hello, world\n")
        # A number beyond a double: nlohmann/json's out_of_range.406, which aborted (rc 134).
        overflow = write("ce_overflow.json", text.replace('"schema_version": 2',
                                                          '"schema_version": 2, "x": 1e400', 1))
        # A latency histogram whose bucket bound is not one of the scheme's (FromBuckets).
        with open(self.base) as f:
            d = json.load(f)
        d["operations"][0]["histogram"]["buckets"][-1][0] += 1
        badhist = write("ce_badhist.json", json.dumps(d))
        cases = [
            ((*a, nolabel), "ce_nolabel.json' has no label"),
            ((*a, other), "config.run_time differs"),
            ((*a, newer), "ce_newer.json': result JSON has schema_version 3, newer"),
            ((*a, truncated), "ce_truncated.json' is truncated"),
            ((*a, foreign), "ce_foreign.json' is not a storebench result file"),
            ((*a, notjson), "ce_notjson.json' is not a storebench result file: not JSON"),
            ((*a, overflow), "ce_overflow.json' is not a storebench result file: number "
                             "overflow parsing '1e400'"),
            ((*a, badhist), "operations[0].histogram: histogram bucket"),
            (("A=" + harness.tmp_path("ce_nothing*.json"), *a), "matches no file (an empty group)"),
            (tuple(a), "at least two groups"),
        ]
        for args, message in cases:
            with self.subTest(message=message):
                p = harness.storebench("compare", *args)
                self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
                self.assertIn(message, p.stderr)
                self.assertNotIn("Traceback", p.stderr)
        # --force compares different run times and says so.
        p = harness.storebench("compare", *a, other, "--force")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("warning (--force): config.run_time differs", p.stdout)
        # An output that is one of the inputs is refused (it replaced the result), exit 2.
        with open(a[0]) as f:
            before = f.read()
        for args in (("report", a[0], "-o", a[0]), ("compare", *a, "B=" + other, "--force", "--json", a[1]),
                     ("compare", *a, "B=" + other, "--force", "--csv", a[0])):
            with self.subTest(args=args[0] + " " + args[-2]):
                p = harness.storebench(*args)
                self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
                self.assertIn(f"refusing to write {args[-2]} '{args[-1]}': it is the input",
                              p.stderr)
        with open(a[0]) as f:
            self.assertEqual(f.read(), before)
        # The report refuses the same files, naming them.
        for bad in (newer, truncated, foreign, overflow):
            p = harness.storebench("report", bad, "-o", harness.tmp_path("ce_bad.html"))
            self.assertEqual(p.returncode, 2)
            self.assertIn(os.path.basename(bad), p.stderr)

    def test_old_schema_version_reads(self):
        with open(self.base) as f:
            d = json.load(f)
        d["schema_version"] = 1
        for key in ("headlines", "headline_specs", "label"):
            d.pop(key, None)
        for w in d.get("windows", []):
            w.pop("headlines", None)
        for b in d.get("baselines", []):
            b.pop("kind", None)
            b.pop("decided_by", None)
        old = write("ce_v1.json", json.dumps(d))
        p = harness.storebench("compare", "OLD=" + old, "NEW=" + self.base, "--force")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("ops_per_minute", p.stdout)
        p = harness.storebench("report", old, "-o", harness.tmp_path("ce_v1.html"))
        self.assertEqual(p.returncode, 0, p.stderr)


class ExecCommandTest(unittest.TestCase):
    def exec_result(self, name, *command, label="ex"):
        path = harness.tmp_path(name)
        p = harness.storebench("exec", "--label", label, "--json", path, "--", *command)
        with open(path) as f:
            return p, json.load(f)

    def test_records_exit_status_and_time(self):
        p, d = self.exec_result("ex_fail.json", "sh", "-c", "sleep 0.3; exit 3")
        self.assertEqual(p.returncode, 1)
        self.assertEqual(d["workload"], "exec")
        self.assertEqual(d["label"], "ex")
        self.assertEqual(d["figures"]["exit_status"], 3)
        self.assertEqual(d["verify"][0]["passed"], False)
        self.assertGreaterEqual(d["headlines"]["wall_sec"], 0.3)  # it slept that long
        self.assertEqual(d["config"]["command"], ["sh", "-c", "sleep 0.3; exit 3"])
        # A result document like any run's.
        status, messages = check_schema.check(
            harness.tmp_path("ex_fail.json"),
            os.path.join(harness.ARGS.source, "docs/output-schema.json"))
        self.assertEqual(status, 0, messages)

    def test_cpu_time_counts_children(self):
        # A child busy for 0.3 s of its own CPU time (measured by itself) under a shell.
        busy = ("import time\nt=time.process_time()\n"
                "while time.process_time()-t<0.3: pass\n")
        p, d = self.exec_result("ex_cpu.json", "sh", "-c", f"/usr/bin/python3 -c '{busy}'; true")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(d["figures"]["exit_status"], 0)
        self.assertGreaterEqual(d["headlines"]["cpu_sec"], 0.3)

    def test_killed_by_a_signal(self):
        p, d = self.exec_result("ex_sig.json", "sh", "-c", "kill -TERM $$")
        self.assertEqual(d["figures"]["signal"], 15)
        self.assertEqual(d["figures"]["exit_status"], 128 + 15)

    def test_a_command_that_cannot_start_is_bad_input(self):
        p = harness.storebench("exec", "--", "/nonexistent/command-xyz")
        self.assertEqual(p.returncode, 2)
        self.assertIn("cannot run '/nonexistent/command-xyz'", p.stderr)
        p = harness.storebench("exec", "--label", "x")
        self.assertEqual(p.returncode, 2)
        # Outputs are refused before the command runs; --series_csv needs --power.
        marker = harness.tmp_path("ex_out_ran")
        for args, message in ((("--json", "/proc/nope/r.json"), "--json '/proc/nope/r.json'"),
                              (("--series_csv", harness.tmp_path("ex_s.csv")), "needs --power")):
            with self.subTest(message=message):
                p = harness.storebench("exec", *args, "--", "touch", marker)
                self.assertEqual(p.returncode, 2)
                self.assertIn(message, p.stderr)
                self.assertFalse(os.path.exists(marker))

    def test_records_power_over_the_command(self):
        # A meter that always reads 50 W: the command's window averages 50 W, and its energy is
        # that average times the command's wall time.
        path = harness.tmp_path("ex_power.json")
        series = harness.tmp_path("ex_power.csv")
        p = harness.storebench("exec", "--label", "pw", "--json", path, "--power",
                               'cmd:"echo 50 W"', "--series_csv", series, "--", "sleep", "3")
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(path) as f:
            d = json.load(f)
        power = d["power"]
        self.assertEqual([s["spec"] for s in power["sources"]], ['cmd:"echo 50 W"'])
        self.assertEqual(len(power["windows"]), 1)
        w = power["windows"][0]
        self.assertEqual(w["label"], "measured")
        self.assertEqual(w["end_sec"], d["headlines"]["wall_sec"])
        self.assertGreaterEqual(w["seconds"] + w["missing"], 2)  # a 3 s command spans 2 ticks
        self.assertEqual(w["avg_w"], 50)
        self.assertAlmostEqual(w["energy_j"], 50 * d["headlines"]["wall_sec"], places=6)
        self.assertIn("power measured: 50.0 W average", p.stdout)
        self.assertIn("power", d["choices"])
        # --series_csv: the readings the report draws, one row per point of the result.
        with open(series) as f:
            rows = f.read().splitlines()
        self.assertEqual(rows[0], 'second,power_w,"power_w cmd:""echo 50 W"""')
        self.assertEqual([float(r.split(",")[1]) for r in rows[1:]], power["points"]["sum_w"])
        # An unusable source ends exec before the command runs (exit 2).
        marker = harness.tmp_path("ex_power_ran")
        p = harness.storebench("exec", "--power", "nosuch:x", "--", "touch", marker)
        self.assertEqual(p.returncode, 2)
        self.assertIn("nosuch", p.stderr)
        self.assertFalse(os.path.exists(marker))

    def test_exec_results_compare(self):
        for i in range(2):
            self.exec_result(f"ex_a{i}.json", "true", label="fast")
            self.exec_result(f"ex_b{i}.json", "sleep", "0.2", label="slow")
        files = [harness.tmp_path(f"ex_{s}{i}.json") for s in "ab" for i in range(2)]
        p = harness.storebench("compare", *files)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("wall_sec", p.stdout)
        self.assertIn("slow/fast", p.stdout)


class ConsolidateSeriesAndReportTest(unittest.TestCase):
    def test_each_run_writes_its_series_and_the_search_reports(self):
        # Runs of 2 s (1 s warm-up; 3 s took a second more per run, two runs), a row each
        # second and one at the end; the thread thinks 1 ms after each operation instead of
        # spinning on a core.
        plan = write("cs_noop.toml", """
[run]
warmup_time = "1s"
run_time = "1s"
window = "1s-2s"
baseline = "ops_per_minute>=1@1s-2s"

[[group]]
name = "n"
count = 1
workload = "noop"
db = "null://{i}"
[group.options]
n_threads = 1
think_time = 0.001
""")
        search = harness.tmp_path("cs_search/search.json")
        p = harness.storebench("consolidate", "--plan", plan, "--instances", "1..2", "--runs",
                               "1", "--search", search, "--run_series_csv", "--label", "cs")
        self.assertEqual(p.returncode, 0, p.stderr)
        runs = os.path.join(os.path.dirname(search), "search-runs")
        for n in (1, 2):
            with open(os.path.join(runs, f"n{n}-run1-series.csv")) as f:
                rows = f.read().splitlines()
            self.assertTrue(rows[0].startswith("instance,second,phase,ops_per_minute,ops,"))
            # One row per instance per second (a 2-second run: at least two rows each).
            self.assertGreaterEqual(len(rows) - 1, 2 * n)
            # A run of one instance is instance "1"; several are named by their group.
            names = {"1"} if n == 1 else {f"n_{i}" for i in range(1, n + 1)}
            self.assertEqual({r.split(",")[0] for r in rows[1:]}, names)
            with open(os.path.join(runs, f"n{n}-run1.json")) as f:
                self.assertEqual(json.load(f)["label"], "cs")
        out = harness.tmp_path("cs_report.html")
        p = harness.storebench("report", search, "-o", out)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(out) as f:
            page = f.read()
        self.assertIn("data-table='f1-verdicts'", page)
        self.assertIn("id='f1-n2-instances-chart'", page)  # the peak's run, per instance


class AbCommandTest(unittest.TestCase):
    def test_alternates_labels_runs_between_and_compares(self):
        d = harness.tmp_path("ab_dir")
        log = harness.tmp_path("ab_between.log")
        if os.path.exists(log):
            os.remove(log)
        # Runs of 500 ms: the case asserts their order, labels, files and comparison, not what
        # they measured (their threads think 1 ms after each operation instead of spinning).
        run = ("storebench oltp run --workload=noop --db null:// --n_threads 1 --run_time 500ms "
               "--warmup_time 0 --think_time 0.001 --progress none")
        # B is a plan of two instances: ab runs plans as well as single runs.
        plan = write("ab_plan.toml", """
[run]
warmup_time = "0s"
run_time = "500ms"
progress = "none"

[[group]]
name = "p"
count = 2
workload = "noop"
db = "null://{i}"
[group.options]
n_threads = 1
think_time = 0.001
""")
        p = harness.storebench("ab", "--a", run, "--b", f"storebench run --plan '{plan}'",
                               "--rounds", "2",
                               "--between", f"echo $STOREBENCH_AB_ROUND $STOREBENCH_AB_NEXT >> {log}",
                               "--labels", "one,two", "--dir", d)
        self.assertEqual(p.returncode, 0, p.stderr)
        for name, label in (("a-round1", "one"), ("b-round1", "two"), ("a-round2", "one"),
                            ("b-round2", "two")):
            with open(os.path.join(d, name + ".json")) as f:
                doc = json.load(f)
            self.assertEqual(doc["label"], label)
            self.assertEqual(len(doc.get("instances", [])), 2 if name[0] == "b" else 0)
        with open(log) as f:
            self.assertEqual(f.read().split("\n")[:3], ["1 two", "2 one", "2 two"])
        with open(os.path.join(d, "compare.json")) as f:
            doc = json.load(f)
        self.assertEqual([g["label"] for g in doc["groups"]], ["one", "two"])
        self.assertEqual([len(g["files"]) for g in doc["groups"]], [2, 2])
        # The order they ran in: A B A B.
        started = []
        for name in ("a-round1", "b-round1", "a-round2", "b-round2"):
            with open(os.path.join(d, name + ".json")) as f:
                started.append(json.load(f)["started_at"])
        self.assertEqual(started, sorted(started))

    def test_outputs_are_checked_before_the_first_run(self):
        d = harness.tmp_path("ab_out")
        marker = harness.tmp_path("ab_out_ran")
        run = f"storebench exec -- touch {marker}"
        for option, path, message in (
                ("--json", os.path.join(d, "b-round1.json"), "it is a run's result"),
                ("--csv", "/proc/nope/c.csv", "cannot be written")):
            with self.subTest(option=option):
                p = harness.storebench("ab", "--a", run, "--b", run, "--rounds", "1",
                                       "--dir", d, option, path)
                self.assertEqual(p.returncode, 2, p.stderr)
                self.assertIn(message, p.stderr)
                self.assertFalse(os.path.exists(marker))

    def test_bad_command_lines(self):
        for a, message in (("make -j8", "must be a storebench command line"),
                           ("storebench compare x.json", "is not a single run"),
                           ("storebench oltp run 'unbalanced", "cannot split")):
            with self.subTest(a=a):
                p = harness.storebench("ab", "--a", a, "--b", "storebench oltp run",
                                       "--dir", harness.tmp_path("ab_bad"))
                self.assertEqual(p.returncode, 2)
                self.assertIn(message, p.stderr)


if __name__ == "__main__":
    harness.main()
