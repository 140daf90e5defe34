"""The Prometheus endpoint (--metrics_addr) as Prometheus reads it: `promtool check metrics` on
scrapes of a run of two SQLite instances and of a storage run of two specifications; instance,
spec and op labels; counters that never go back across specifications; the final counts served
for --metrics_linger after the result is written, ended at once by a stop signal; and a real
Prometheus server (Debian's prometheus) scraping short runs, queried through its HTTP API with
the expressions of docs/examples/grafana-dashboard.json."""
import atexit
import concurrent.futures
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import threading
import time
import unittest
import urllib.parse
import urllib.request

from prometheus_client.parser import text_string_to_metric_families

import harness
from harness import storebench, tmp_path

PROMTOOL = shutil.which("promtool")
PROMETHEUS = shutil.which("prometheus")
NO_PROMETHEUS = ("Debian's prometheus package is not installed (promtool, prometheus): "
                 "scripts/install-deps.sh test installs it")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Run:
    """A storebench run in the background whose stderr lines are collected as they come."""

    def __init__(self, *args):
        self.proc = subprocess.Popen([harness.ARGS.binary, *args], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE, text=True)
        self.lines = []
        self.cond = threading.Condition()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for line in self.proc.stderr:
            with self.cond:
                self.lines.append(line)
                self.cond.notify_all()
        with self.cond:
            self.lines.append(None)  # the end
            self.cond.notify_all()

    def wait_for(self, pattern, timeout=120):
        """The first match of `pattern` in a stderr line, waiting at most `timeout` seconds."""
        deadline = time.time() + timeout
        with self.cond:
            while True:
                for line in self.lines:
                    if line is None:
                        raise AssertionError(f"the run ended without '{pattern}':\n"
                                             + "".join(l for l in self.lines if l))
                    m = re.search(pattern, line)
                    if m:
                        return m
                left = deadline - time.time()
                if left <= 0:
                    raise AssertionError(f"no '{pattern}' within {timeout} s")
                self.cond.wait(left)

    def stderr(self):
        with self.cond:
            return "".join(l for l in self.lines if l)

    def finish(self, timeout=120):
        self.proc.wait(timeout=timeout)
        return self.proc.returncode

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.reader.join()  # the pipe's end read
        self.proc.stderr.close()


def scrape(port):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as resp:
        return resp.read().decode()


def scrape_until_final(run):
    """Scrapes `run`'s endpoint every 0.2 s until it serves the final metrics: ([samples of
    each scrape before], the final text)."""
    port = int(run.wait_for(r"metrics on port (\d+)").group(1))
    scrapes = []
    while not any(l and "serving the final metrics" in l for l in run.lines):
        if run.proc.poll() is not None:  # ended (or killed) without its final metrics
            raise AssertionError("the run ended first:\n" + run.stderr())
        try:
            scrapes.append(samples(scrape(port)))
        except OSError:
            pass
        time.sleep(0.2)
    return scrapes, scrape(port)


def samples(text):
    """{(name, sorted labels): value} of every sample in `text`."""
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for f in text_string_to_metric_families(text) for s in f.samples}


class PrometheusEndpointTest(unittest.TestCase):
    dbs = []

    @classmethod
    def setUpClass(cls):
        PrometheusServer.start()  # for RealPrometheusTest: it starts while these cases run
        cls.dbs = [tmp_path(f"it-prom-{n}-1MB.db") for n in ("a", "b")]
        for db in cls.dbs:
            for suffix in ("", "-wal", "-shm"):
                if os.path.exists(db + suffix):
                    os.remove(db + suffix)
        # Loaded once and copied (a load took 7 s, a copy well under one): the two instances
        # need two files, not two loads. 1MB (5MB before: 7 s): the runs need orders, not rows.
        r = storebench("oltp", "load", "--db", "sqlite://" + cls.dbs[0], "--db_size=1MB")
        assert r.returncode == 0, r.stderr
        assert not os.path.exists(cls.dbs[0] + "-wal"), "the load left a write-ahead log"
        shutil.copyfile(cls.dbs[0], cls.dbs[1])
        # The cases that read only what is served after their run's end start their runs here,
        # side by side, each on databases of its own (a run locks its databases).
        cls.case_dbs = {"instances": cls.dbs}
        for name, n in (("nolinger", 2), ("plan", 1)):
            cls.case_dbs[name] = [tmp_path(f"it-prom-{name}-{i}-1MB.db") for i in range(n)]
            for db in cls.case_dbs[name]:
                harness.remove_sqlite(db)
                shutil.copyfile(cls.dbs[0], db)
        cls.target = tmp_path("it-prom-io.tst")
        if os.path.exists(cls.target):
            os.remove(cls.target)
        r = storebench("io", "prepare", "--target", cls.target, "--size", "8MiB")
        assert r.returncode == 0, r.stderr
        cls.runs = {
            "instances": cls.db_run("instances", "--metrics_addr=127.0.0.1:0",
                                    "--metrics_linger=10m"),
            "nolinger": cls.db_run("nolinger", "--metrics_addr=127.0.0.1:0",
                                   "--metrics_linger=0"),
            "plan": cls.plan_run(),
            "specs": cls.storage_run("specs", "--metrics_addr=127.0.0.1:0",
                                     "--metrics_linger=10m"),
        }
        # The storage case's scrapes, taken while its run runs (on a thread from its start).
        cls.specs_scrapes = concurrent.futures.ThreadPoolExecutor(1).submit(
            scrape_until_final, cls.runs["specs"])

    @classmethod
    def db_run(cls, name, *extra):
        # 1 s: orders on both instances; what is checked is served after the run.
        run = Run("oltp", "run", "--db", ";".join("sqlite://" + d for d in cls.case_dbs[name]),
                  "--n_threads=1", "--warmup_time=0", "--run_time=1s",
                  "--json", tmp_path(f"it-prom-{name}.json"), *extra)
        cls.addClassCleanup(run.kill)
        return run

    @classmethod
    def plan_run(cls):
        plan = tmp_path("it-prom-plan.toml")
        with open(plan, "w") as f:
            f.write('[run]\nwarmup_time = "0s"\nrun_time = "1s"\n\n'
                    '[[group]]\nname = "web"\ncount = 1\nworkload = "dvdstore"\n'
                    f'db = "sqlite://{cls.case_dbs["plan"][0]}"\n[group.options]\n'
                    'n_threads = 1\n')
        run = Run("run", "--plan", plan, "--metrics_addr=127.0.0.1:0", "--metrics_linger=10m",
                  "--json", tmp_path("it-prom-plan.json"))
        cls.addClassCleanup(run.kill)
        return run

    @classmethod
    def storage_run(cls, name, *extra):
        # The ICF's two access specifications, one after the other, 1 s each (scraped every
        # 0.2 s). Open loop at 20,000 I/Os a second: the null engine in a closed loop spins on
        # a core the runs beside it need.
        run = Run("io", "run", "--engine", "null", "--target", cls.target, "--icf",
                  os.path.join(harness.ARGS.source, "tests", "data", "some.icf"),
                  "--ramp_time", "0s", "--run_time", "1s", "--rate", "20000",
                  "--json", tmp_path(f"it-prom-{name}.json"), *extra)
        cls.addClassCleanup(run.kill)
        return run

    def promtool_check(self, text):
        r = subprocess.run([PROMTOOL, "check", "metrics"], input=text, capture_output=True,
                           text=True, timeout=60)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertEqual(r.stdout + r.stderr, "", "promtool's lint found problems")

    def assert_cumulative_buckets(self, text):
        buckets = {}
        for f in text_string_to_metric_families(text):
            if f.type != "histogram":
                continue
            for s in f.samples:
                labels = tuple(sorted((k, v) for k, v in s.labels.items() if k != "le"))
                if s.name.endswith("_bucket"):
                    buckets.setdefault((f.name, labels), []).append(
                        (float(s.labels["le"]), s.value))
                elif s.name.endswith("_count"):
                    buckets.setdefault((f.name, labels), []).append((float("inf"), s.value))
        self.assertTrue(buckets)
        for key, points in buckets.items():
            points.sort()
            values = [v for _, v in points]
            self.assertEqual(values, sorted(values), key)
            self.assertEqual(points[-1][1], points[-2][1], f"{key}: +Inf is not _count")

    @unittest.skipIf(PROMTOOL is None, NO_PROMETHEUS)
    def test_instances_labelled_final_counts_lingered_and_a_stop_ends_the_linger(self):
        run = self.runs["instances"]
        port = int(run.wait_for(r"metrics on port (\d+)").group(1))
        # After the result is written the endpoint still serves: the final counts.
        run.wait_for(r"serving the final metrics on port \d+ for \S+")
        text = scrape(port)
        self.promtool_check(text)
        self.assert_cumulative_buckets(text)
        s = samples(text)
        orders = {dict(k[1])["instance"]: v for k, v in s.items()
                  if k[0] == "storebench_unit_duration_seconds_count"}
        self.assertEqual(set(orders), {"1", "2"})
        self.assertTrue(all(v > 0 for v in orders.values()), orders)
        self.assertFalse([k for k in s if k[0].startswith("storebench_operation_duration")])
        self.assertEqual(scrape(port), text, "the text changed after the run's end")
        # A stop signal ends the 10-minute linger at once.
        run.proc.send_signal(signal.SIGTERM)
        self.assertEqual(run.finish(timeout=60), 0, run.stderr())

    def test_a_plan_labels_its_instance_by_name(self):
        run = self.runs["plan"]
        port = int(run.wait_for(r"metrics on port (\d+)").group(1))
        run.wait_for(r"serving the final metrics")
        s = samples(scrape(port))
        instances = {dict(k[1]).get("instance") for k in s}
        self.assertEqual(instances, {"web_1"})
        run.proc.send_signal(signal.SIGTERM)
        self.assertEqual(run.finish(timeout=60), 0, run.stderr())

    def test_linger_zero_closes_at_the_end(self):
        run = self.runs["nolinger"]
        self.assertEqual(run.finish(), 0, run.stderr())
        self.assertNotIn("serving the final metrics", run.stderr())

    @unittest.skipIf(PROMTOOL is None, NO_PROMETHEUS)
    def test_storage_specs_are_series_of_their_own_that_never_go_back(self):
        run = self.runs["specs"]
        scrapes, final = self.specs_scrapes.result()
        self.promtool_check(final)
        self.assert_cumulative_buckets(final)
        scrapes.append(samples(final))
        last = scrapes[-1]
        specs = {dict(k[1])["spec"] for k in last
                 if k[0] == "storebench_unit_duration_seconds_count"}
        self.assertEqual(len(specs), 2, specs)
        ops = {dict(k[1])["op"] for k in last if k[0] == "storebench_io_bytes_total"}
        self.assertEqual(ops, {"read", "write"})
        # Every series of every scrape is in the later ones, never smaller (the old endpoint
        # restarted its counters at each specification).
        for earlier, later in zip(scrapes, scrapes[1:]):
            for key, value in earlier.items():
                if key[0] == "storebench_elapsed_seconds":
                    continue
                self.assertIn(key, later)
                self.assertGreaterEqual(later[key], value, key)
        run.proc.send_signal(signal.SIGINT)
        self.assertEqual(run.finish(timeout=60), 0, run.stderr())


class PrometheusServer:
    """A Prometheus server on 127.0.0.1 scraping one port every 250 ms, started once per file:
    by the first class's setUpClass, so its start-up (ready, then its first scrape: some 6 s of
    waiting) passes while PrometheusEndpointTest's cases run; stopped at the file's end."""

    proc = None

    @classmethod
    def start(cls):
        if cls.proc is not None or PROMETHEUS is None:
            return
        cls.metrics_port = free_port()
        cls.api_port = free_port()
        work = tmp_path("it-prom-server")
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work)
        config = os.path.join(work, "prometheus.yml")
        with open(config, "w") as f:
            # honor_labels: the run's own instance label (the instance's name) is kept instead of
            # being renamed exported_instance (docs/measurement.md).
            # Every 250 ms (1 s before): the three scrapes of a run's final text each case
            # waits for take 0.75 s, and a run of 2 s is scraped some eight times.
            f.write("global:\n  scrape_interval: 250ms\n  scrape_timeout: 250ms\n"
                    "scrape_configs:\n  - job_name: storebench\n    honor_labels: true\n"
                    f"    static_configs:\n      - targets: ['127.0.0.1:{cls.metrics_port}']\n")
        cls.log = open(os.path.join(work, "prometheus.log"), "w")
        cls.proc = subprocess.Popen(
            [PROMETHEUS, f"--config.file={config}", f"--storage.tsdb.path={work}/data",
             f"--web.listen-address=127.0.0.1:{cls.api_port}"],
            stdout=subprocess.DEVNULL, stderr=cls.log)
        atexit.register(cls.stop)

    @classmethod
    def stop(cls):
        # Killed: its data is the test's scratch (removed at the next start), and a graceful
        # shutdown took seconds.
        cls.proc.kill()
        cls.proc.wait()
        cls.log.close()


@unittest.skipIf(PROMETHEUS is None, NO_PROMETHEUS)
class RealPrometheusTest(unittest.TestCase):
    """The file's Prometheus server scraping storebench every 250 ms, whose runs take turns on
    its one scraped port."""

    @classmethod
    def setUpClass(cls):
        if not PrometheusEndpointTest.dbs:  # this class alone (-k): its databases and target
            PrometheusEndpointTest.setUpClass()
        cls.dbs = PrometheusEndpointTest.dbs
        cls.target = PrometheusEndpointTest.target
        PrometheusServer.start()
        cls.server = PrometheusServer.proc
        cls.metrics_port = PrometheusServer.metrics_port
        cls.api_port = PrometheusServer.api_port
        deadline = time.time() + 120
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{cls.api_port}/-/ready",
                                            timeout=5) as resp:
                    if resp.status == 200:
                        break
            except OSError:
                pass
            if cls.server.poll() is not None:
                raise AssertionError("prometheus exited; see prometheus.log")
            if time.time() > deadline:
                raise AssertionError("prometheus not ready within 120 s")
            time.sleep(0.5)
        # Prometheus hands new targets to its scrapers only every few seconds: a run before the
        # first scrape (the target is down then) would be missed.
        while not cls.scraped_once():
            if time.time() > deadline:
                raise AssertionError("prometheus did not scrape within 120 s")
            time.sleep(0.5)

    @classmethod
    def scraped_once(cls):
        with urllib.request.urlopen(f"http://127.0.0.1:{cls.api_port}/api/v1/targets",
                                    timeout=10) as resp:
            targets = json.load(resp)["data"]["activeTargets"]
        return any(not t["lastScrape"].startswith("0001-") for t in targets)

    def query(self, expr, at):
        url = (f"http://127.0.0.1:{self.api_port}/api/v1/query?"
               + urllib.parse.urlencode({"query": expr, "time": f"{at:.3f}"}))
        with urllib.request.urlopen(url, timeout=10) as resp:
            body = json.load(resp)
        self.assertEqual(body["status"], "success", body)
        return body["data"]["result"]

    def run_scraped(self, args):
        """Runs storebench on the scraped port with a linger; returns its final text and an
        instant while the linger still served it, after Prometheus scraped it at least once."""
        run = Run(*args, f"--metrics_addr=127.0.0.1:{self.metrics_port}", "--metrics_linger=10m")
        self.addCleanup(run.kill)
        run.wait_for(r"serving the final metrics")
        final_since = time.time()
        final = scrape(self.metrics_port)
        # Three scrapes of the final text: Prometheus's own `up` series has one sample per
        # scrape (1 when it read the text, 0 when it failed, e.g. timed out on a busy machine),
        # and those that began after the linger began all read the final text.
        deadline = time.time() + 120
        while True:
            at = time.time()
            window_ms = max(1, int((at - final_since) * 1000))
            up = self.query(f'sum_over_time(up{{job="storebench"}}[{window_ms}ms])', at)
            if up and float(up[0]["value"][1]) >= 3:
                break
            self.assertLess(at, deadline, f"prometheus did not scrape the final text 3 times: {up}")
            time.sleep(0.2)
        # The linger has served its purpose: a stop signal ends it (the case above asserts so).
        run.proc.send_signal(signal.SIGTERM)
        self.assertEqual(run.finish(), 0, run.stderr())
        return final, at

    def dashboard_exprs(self, workload_filter):
        with open(os.path.join(harness.ARGS.source, "docs", "examples",
                               "grafana-dashboard.json")) as f:
            dash = json.load(f)
        exprs = [t["expr"] for p in dash["panels"] for t in p.get("targets", [])]
        self.assertTrue(exprs)
        return [e.replace("$__rate_interval", "10s") for e in exprs if workload_filter(e)]

    def test_prometheus_scrapes_instances_and_the_dashboard_reads_them(self):
        final, at = self.run_scraped(
            ["oltp", "run", "--db", ";".join("sqlite://" + d for d in self.dbs),
             "--n_threads=1", "--warmup_time=0", "--run_time=2s",
             "--json", tmp_path("it-prom-server-db.json")])
        served = {dict(k[1])["instance"]: v for k, v in samples(final).items()
                  if k[0] == "storebench_unit_duration_seconds_count"}
        stored = {r["metric"]["instance"]: float(r["value"][1])
                  for r in self.query("storebench_unit_duration_seconds_count", at)}
        # The final counts reached Prometheus, under each instance's name.
        self.assertEqual(stored, served)
        quantiles = self.query("histogram_quantile(0.99, sum by (le, instance) "
                               "(rate(storebench_unit_duration_seconds_bucket[1m])))", at)
        self.assertEqual({r["metric"]["instance"] for r in quantiles}, {"1", "2"})
        scraped = self.query("storebench_unit_duration_seconds_count[1m]", at)
        for r in quantiles:
            self.assertGreater(float(r["value"][1]), 0, f"{r}; what was scraped: {scraped}")
        # Every database panel of the dashboard has data (errors may be all zero: a rate of 0).
        for expr in self.dashboard_exprs(lambda e: "spec" not in e):
            self.assertTrue(self.query(expr, at), expr)

    def test_prometheus_scrapes_storage_specs_and_the_dashboard_reads_them(self):
        _, at = self.run_scraped(["io", "run", "--engine", "null", "--target", self.target, "--icf",
                          os.path.join(harness.ARGS.source, "tests", "data", "some.icf"),
                          "--ramp_time", "0s", "--run_time", "1s",
                          "--json", tmp_path("it-prom-server-io.json")])
        iops = self.query('sum by (spec, op) (storebench_unit_duration_seconds_count'
                          '{workload="storage"})', at)
        self.assertEqual(len({r["metric"]["spec"] for r in iops}), 2, iops)
        self.assertEqual({r["metric"]["op"] for r in iops}, {"read", "write"})
        for expr in self.dashboard_exprs(lambda e: "spec" in e):
            self.assertTrue(self.query(expr, at), expr)


if __name__ == "__main__":
    harness.main()
