"""Live outputs during a run: JSON-lines progress and the Prometheus endpoint; open loop."""
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import time
import unittest
import urllib.request

import jsonschema

from prometheus_client.parser import text_string_to_metric_families

import harness
from harness import storebench, tmp_path


def remove_db(path):
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)


# A think time per order (mean 20 ms) for the runs whose cases read their output's form, not
# their throughput: each thread mostly waits instead of keeping a core busy (the machine's two
# cores are shared by every test), and still completes dozens of orders a second.
THINK = "--think_time=0.02"


def copy_of_pristine(pristine, name):
    path = tmp_path(name)
    remove_db(path)
    shutil.copyfile(pristine, path)
    return path


class LiveOutputsTest(unittest.TestCase):
    db = None

    @classmethod
    def setUpClass(cls):
        # 1MB loaded once (a 5MB load took 7 s) and copied for each case: runs register new
        # customers under DVD Store's names newuser1..newuser<customers>, and 1MB's 2,000 were
        # all taken after a few runs on one database ("no free new-customer user name", every
        # thread stopped); a case's runs take a few hundred.
        cls.pristine = tmp_path("it-live-pristine-1MB.db")
        remove_db(cls.pristine)
        r = storebench("oltp", "load", "--db", "sqlite://" + cls.pristine, "--db_size=1MB")
        assert r.returncode == 0, r.stderr
        assert not os.path.exists(cls.pristine + "-wal"), "the load left a write-ahead log"
        # The runs of a set length whose cases only read their output start now, each on a copy
        # of its own, and wait out their seconds beside the other cases; their cases assert on
        # them. The open-loop run (10 orders a second: it mostly waits):
        open_db = copy_of_pristine(cls.pristine, "it-live-open-1MB.db")
        cls.open_out = tmp_path("it-open.json")
        cls.open_run = harness.storebench_started(
            "oltp", "run", "--db", "sqlite://" + open_db, "--n_threads=2", "--warmup_time=0",
            "--run_time=4s", "--rate=10", "--arrival=poisson", "--window=1s-3s",
            "--baseline=opm>=1@1s-3s", "--json", cls.open_out)
        # The JSON progress lines (one a second: 4 s for at least 3 of them).
        json_db = copy_of_pristine(cls.pristine, "it-live-json-1MB.db")
        cls.json_run = harness.storebench_started(
            "oltp", "run", "--db", "sqlite://" + json_db, "--n_threads=2", "--warmup_time=0",
            "--run_time=4s", THINK, "--progress=json", "--json", tmp_path("it-live-json.json"))
        # A baseline no run meets, judged on the window 1s-2s (a run of 2 s).
        baseline_db = copy_of_pristine(cls.pristine, "it-live-baseline-1MB.db")
        cls.baseline_run = harness.storebench_started(
            "oltp", "run", "--db", "sqlite://" + baseline_db, "--n_threads=1",
            "--warmup_time=0", "--run_time=2s", THINK, "--baseline=opm>=1000000@1s-2s",
            "--json", tmp_path("it-baseline.json"))

    @classmethod
    def tearDownClass(cls):
        for run in (cls.open_run, cls.json_run, cls.baseline_run):
            run.result()

    def setUp(self):
        self.db = tmp_path("it-live-1MB.db")
        remove_db(self.db)
        shutil.copyfile(self.pristine, self.db)

    def test_json_progress_lines_parse(self):
        r = self.json_run.result()  # started in setUpClass
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = [l for l in r.stderr.splitlines() if l.startswith("{")]
        self.assertGreaterEqual(len(lines), 3)
        self.assertFalse([l for l in (r.stdout + r.stderr).splitlines() if l.startswith("et=")])
        prev_t = 0
        for line in lines:
            obj = json.loads(line)
            self.assertGreater(obj["t"], prev_t)
            prev_t = obj["t"]
            self.assertIn("order", obj["types"])
            self.assertIn("p99_ms", obj["types"]["purchase"])
            self.assertIn("retries", obj["counters"])
            self.assertIn("errors.deadlock", obj["counters"])
            self.assertGreaterEqual(obj["running"]["opm"], 0)

    def test_prometheus_endpoint_during_run(self):
        p = subprocess.Popen([harness.ARGS.binary, "oltp", "run", "--db", "sqlite://" + self.db,
                              "--n_threads=2", "--warmup_time=0", "--run_time=3s", THINK,
                              "--metrics_addr=127.0.0.1:0",
                              "--metrics_linger=0", "--json",
                              tmp_path("it-live-prom.json")],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            port = None
            deadline = time.time() + 30
            while port is None and time.time() < deadline:
                m = re.search(r"port (\d+)", p.stderr.readline())
                if m:
                    port = int(m.group(1))
            self.assertIsNotNone(port)
            # Scraped until an order was counted (within the run's first second or so).
            while True:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics",
                                            timeout=10) as resp:
                    self.assertEqual(resp.status, 200)
                    text = resp.read().decode()
                families = {f.name: f for f in text_string_to_metric_families(text)}
                lat = families.get("storebench_unit_duration_seconds")
                if lat and any(s.value > 0 for s in lat.samples if s.name.endswith("_count")
                               and s.labels.get("unit") == "order"):
                    break
                self.assertLess(time.time(), deadline, "no order counted")
                time.sleep(0.2)
            # Unit latency: a histogram in seconds (cumulative buckets, _sum, _count since
            # Start), the steps in a family of their own.
            lat = families["storebench_unit_duration_seconds"]
            self.assertEqual(lat.type, "histogram")
            order = {s.labels.get("le") or s.name[len(lat.name):]: s.value
                     for s in lat.samples if s.labels.get("unit") == "order"}
            self.assertGreater(order["_count"], 0)
            self.assertGreater(order["_sum"], 0)
            self.assertEqual(order["+Inf"], order["_count"])
            self.assertLess(order["_sum"] / order["_count"], 60)  # seconds, not milliseconds
            steps = families["storebench_step_duration_seconds"]
            self.assertIn("purchase", {s.labels["step"] for s in steps.samples})
            # One instance: no instance label (Prometheus' own names the target).
            self.assertNotIn("instance=", text)
            # One counter per kind, labelled: errors by category, retries on their own.
            errors = families["storebench_errors"]  # the parser strips "_total"
            self.assertEqual(errors.type, "counter")
            self.assertIn("deadlock", {s.labels["category"] for s in errors.samples})
            self.assertEqual(families["storebench_retries"].type, "counter")
            self.assertEqual(families["storebench_rollbacks"].type, "counter")
            for f in families.values():
                # Base units, no pre-computed rates, counters named *_total in the text.
                self.assertNotRegex(f.name, r"(_ms|_minute|per_second|rate)", f.name)
                if f.type == "counter":
                    self.assertIn(f"# TYPE {f.name}_total counter", text)
            # No series twice.
            keys = [(s.name, tuple(sorted(s.labels.items())))
                    for f in families.values() for s in f.samples]
            self.assertEqual(len(keys), len(set(keys)))
        finally:
            p.communicate(timeout=60)
        self.assertEqual(p.returncode, 0)

    def test_prometheus_endpoint_answers_beside_idle_connections(self):
        # The old endpoint served one connection at a time: 17 idle clients blocked it.
        # A 1-s run whose endpoint lingers until the case stops it (exit 0, as
        # test_prometheus_endpoint asserts): the scrape finds it serving however late it comes,
        # during the run or after, and the case ends right after it.
        p = subprocess.Popen([harness.ARGS.binary, "oltp", "run", "--db", "sqlite://" + self.db,
                              "--n_threads=1", "--warmup_time=0", "--run_time=1s", THINK,
                              "--metrics_addr=127.0.0.1:0",
                              "--metrics_linger=10m", "--json",
                              tmp_path("it-live-idle.json")],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        idle = []
        stopped = False
        try:
            port = None
            deadline = time.time() + 30
            while port is None and time.time() < deadline:
                m = re.search(r"port (\d+)", p.stderr.readline())
                if m:
                    port = int(m.group(1))
            self.assertIsNotNone(port)
            for _ in range(20):
                idle.append(socket.create_connection(("127.0.0.1", port), timeout=5))
            time.sleep(0.5)
            started = time.time()
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as resp:
                self.assertEqual(resp.status, 200)
                self.assertIn("text/plain", resp.headers["Content-Type"])
                resp.read()
            self.assertLess(time.time() - started, 3)
            # A stop during the run would end it with 130: only once it lingers.
            while "serving the final metrics" not in p.stderr.readline():
                self.assertIsNone(p.poll(), "the run ended without its linger")
            p.send_signal(signal.SIGTERM)
            stopped = True
        finally:
            for s in idle:
                s.close()
            if not stopped and p.poll() is None:  # a failed case: end the linger
                p.send_signal(signal.SIGTERM)
            p.communicate(timeout=60)
        self.assertEqual(p.returncode, 0)

    def test_open_loop_records_lag_and_model(self):
        out = self.open_out
        r = self.open_run.result()  # started in setUpClass
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(out) as f:
            doc = json.load(f)
        with open(os.path.join(harness.ARGS.source, "docs", "output-schema.json")) as f:
            jsonschema.validate(doc, json.load(f))
        self.assertTrue(doc["loop_model"].startswith("open loop"))
        types = [o["type"] for o in doc["operations"]]
        self.assertIn("schedule_lag", types)
        self.assertEqual(doc["windows"][0]["label"], "1s-3s")
        self.assertTrue(doc["baselines"][0]["passed"])
        self.assertIn("steady_state", doc)

    def test_op_log(self):
        log = tmp_path("it-ops.log")
        out = tmp_path("it-ops.json")
        # 1 s: every unit logged needs units, not seconds (2 s before).
        r = storebench("oltp", "run", "--db", "sqlite://" + self.db, "--n_threads=2",
                       "--warmup_time=0", "--run_time=1s", THINK, "--op_log", log,
                       "--json", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(out) as f:
            doc = json.load(f)
        with open(log) as f:
            lines = [l.split() for l in f if not l.startswith("#")]
        # Every unit is logged with sampling 1 (wind-down units too, so at least the window's).
        self.assertGreaterEqual(len(lines), doc["figures"]["n_overall"])
        outcomes = {l[5] for l in lines}
        self.assertTrue(outcomes <= {"ok", "rollback", "error"}, outcomes)
        for worker, typ, intended, start, latency, _ in lines:
            self.assertIn(worker, ("0", "1"))
            self.assertEqual(typ, "order")
            self.assertLessEqual(int(intended), int(start))
            self.assertGreater(int(latency), 0)
        # Sampling keeps roughly the requested fraction (seeded, so the count is repeatable).
        r = storebench("oltp", "run", "--db", "sqlite://" + self.db, "--n_threads=2",
                       "--warmup_time=0", "--run_time=1s", THINK, "--op_log", log,
                       "--op_log_sampling=0", "--json", out)
        with open(log) as f:
            self.assertEqual([l for l in f if not l.startswith("#")], [])

    def test_failed_baseline_exits_1_with_words(self):
        r = self.baseline_run.result()  # started in setUpClass
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn("must be at least 1e+06", r.stderr)


# The cases that wait for a run setUpClass started.
AWAIT_SETUP_RUNS = ("test_failed_baseline_exits_1_with_words", "test_json_progress_lines_parse",
                    "test_open_loop_records_lag_and_model")


def load_tests(loader, tests, pattern):
    """The cases in name order, except those that wait for setUpClass's runs: last, so the
    others run during those runs instead of after them (unittest's load_tests protocol)."""
    names = loader.getTestCaseNames(LiveOutputsTest)
    names = [n for n in names if n not in AWAIT_SETUP_RUNS] + \
        [n for n in names if n in AWAIT_SETUP_RUNS]
    return unittest.TestSuite(LiveOutputsTest(n) for n in names)


if __name__ == "__main__":
    harness.main()
