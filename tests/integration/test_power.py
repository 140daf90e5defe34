"""Power beside runs (issue #11) with no power hardware: a PTDaemon simulator on loopback
(tests/ptd_simulator.py), commands printing watts, a Redfish BMC served from this process.
Checks the result's power section against the constant readings, the exit-2 refusals before a
run, a meter that stops answering mid-run, power idle/log, and that credentials never appear.
The runs and the power commands start together (setUpModule): each waits out its seconds of
readings beside the others, and its case asserts on it when it is done."""
import base64
import csv as csv_module
import http.server
import json
import os
import shutil
import subprocess
import sys
import threading
import unittest

import check_schema as schema
import harness
from harness import storebench, tmp_path

# The noop runs' think time: what the cases assert is the power section (readings, windows,
# marks, per-watt figures from whatever the run counted), which a thread doing a thousand
# operations a second records as well as one spinning on a core for the run's seconds.
THINK = ("--think_time", "0.001")


class PtdSimulator:
    def __init__(self, *args):
        self.log = tmp_path("it-power-ptd-%d.log" % id(self))
        if os.path.exists(self.log):
            os.remove(self.log)
        script = os.path.join(harness.ARGS.source, "tests", "ptd_simulator.py")
        self.proc = subprocess.Popen([sys.executable, script, "--log", self.log, *args],
                                     stdout=subprocess.PIPE, text=True)
        self.port = int(self.proc.stdout.readline().split()[1])

    def commands(self):
        with open(self.log) as f:
            return f.read().splitlines()

    def close(self):
        self.proc.terminate()
        self.proc.wait(timeout=10)
        self.proc.stdout.close()


def check_schema(test, path):
    status, messages = schema.check(
        path, os.path.join(harness.ARGS.source, "docs/output-schema.json"))
    test.assertEqual(status, 0, messages)



def null_plan(name, run_lines, db_prefix):
    """A plan file of two noop instances on the null back end (one thread each, thinking 1 ms)
    with `run_lines` in its [run] table; its path."""
    plan = tmp_path(name)
    with open(plan, "w") as f:
        f.write('[run]\nwarmup_time = "0s"\n%s\n\n'
                '[[group]]\nname = "n"\ncount = 2\nworkload = "noop"\n'
                'db = "null:///%s{i}"\n[group.options]\nn_threads = 1\nthink_time = 0.001\n'
                % (run_lines, db_prefix))
    return plan

def setUpModule():
    # Every case's command is started here, all at once: a run mostly waits out its seconds
    # (power is read once a second; the noop threads sleep between operations), so the
    # commands' seconds overlap; each case waits for its own and asserts on it.
    PowerRunTest.sims = []
    PowerRunTest.runs = {}
    try:
        PowerRunTest.start_runs()
        PowerCommandTest.start_runs()
    except BaseException:
        tearDownModule()
        raise


def tearDownModule():
    for run in PowerRunTest.runs.values():
        run.result()
    for sim in PowerRunTest.sims:
        sim.close()
    if getattr(PowerCommandTest, "server", None):
        PowerCommandTest.server.shutdown()
        PowerCommandTest.server.server_close()


class PowerRunTest(unittest.TestCase):
    """Runs with power beside them (started in setUpModule)."""

    @classmethod
    def sim(cls, *args):
        sim = PtdSimulator(*args)
        cls.sims.append(sim)
        return sim

    @classmethod
    def start_runs(cls):
        cls.oltp_sim = cls.sim("--watts", "200")
        cls.oltp_out = tmp_path("it-power-oltp.json")
        cls.oltp_csv = tmp_path("it-power-oltp.csv")
        cls.runs["oltp"] = harness.storebench_started(
            "oltp", "run", "--workload=noop", "--db", "null://", "--n_threads", "2",
            "--warmup_time", "1s", "--run_time", "4s", "--window", "1s-3s", "--power",
            "ptd://127.0.0.1:%d" % cls.oltp_sim.port, "--power", 'cmd:"echo 50 W"', "--json",
            cls.oltp_out, "--series_csv", cls.oltp_csv, *THINK)

        cls.hang_sim = cls.sim("--watts", "120", "--hang-after", "2")
        cls.hang_out = tmp_path("it-power-hang.json")
        cls.runs["hang"] = harness.storebench_started(
            "oltp", "run", "--workload=noop", "--db", "null://", "--n_threads", "1",
            "--warmup_time", "0", "--run_time", "4s", "--power",
            "ptd://127.0.0.1:%d?timeout_ms=300" % cls.hang_sim.port, "--json", cls.hang_out,
            *THINK)

        plan = null_plan("it-power-plan.toml", 'run_time = "3s"\npower = \'cmd:"echo 90"\'', "n")
        cls.plan_out = tmp_path("it-power-plan.json")
        cls.runs["plan"] = harness.storebench_started("run", "--plan", plan, "--json",
                                                      cls.plan_out)

        plan = null_plan("it-power-cons.toml", 'run_time = "2s"\nbaseline = "ops>=1@run"', "c")
        cls.search = tmp_path("it-power-cons/search.json")
        shutil.rmtree(os.path.dirname(cls.search), ignore_errors=True)
        os.makedirs(os.path.dirname(cls.search))
        cls.runs["consolidate"] = harness.storebench_started(
            "consolidate", "--plan", plan, "--instances", "1..2", "--runs", "1", "--power",
            'cmd:"echo 12"', "--search", cls.search)

        target = tmp_path("it-power.tst")
        if os.path.exists(target):
            os.remove(target)
        cls.io_prepare = storebench("io", "prepare", "--target", target, "--size", "8MiB")
        if cls.io_prepare.returncode != 0:
            return
        cls.io_out, cls.io_csv = tmp_path("it-power-io.json"), tmp_path("it-power-io.csv")
        # Open loop at 10,000 I/Os a second: the null engine in a closed loop spins on a core.
        cls.runs["io"] = harness.storebench_started(
            "io", "run", "--engine", "null", "--spec", "4KiB,100%read,100%random", "--target",
            target, "--run_time", "3s", "--power", 'cmd:"echo 40"', "--rate", "10000", "--json",
            cls.io_out, "--series_csv", cls.io_csv)

    def test_oltp_run_records_power_and_per_watt_figures(self):
        sim = self.oltp_sim
        r = self.runs["oltp"].result()
        out, csv = self.oltp_out, self.oltp_csv
        self.assertEqual(r.returncode, 0, r.stderr)
        commands = sim.commands()
        with open(out) as f:
            doc = json.load(f)
        check_schema(self, out)
        p = doc["power"]
        self.assertEqual([s["spec"] for s in p["sources"]],
                         ["ptd://127.0.0.1:%d" % sim.port, 'cmd:"echo 50 W"'])
        self.assertEqual(p["sources"][0]["measures"], "wall")
        self.assertIn("WT310", p["sources"][0]["description"])
        measured = p["windows"][0]
        self.assertEqual(measured["label"], "measured")
        self.assertGreater(measured["seconds"], 0)
        # Constant readings: every complete second sums to 250 W.
        self.assertAlmostEqual(measured["avg_w"], 250.0, places=9)
        length = measured["end_sec"] - measured["start_sec"]
        self.assertAlmostEqual(measured["energy_j"], 250.0 * length, places=6)
        opm = doc["headlines"]["ops_per_minute"]
        self.assertGreater(opm, 0)
        self.assertAlmostEqual(measured["per_watt"]["ops_per_minute"], opm / 250.0,
                               delta=1e-9 * opm)
        self.assertAlmostEqual(measured["joules_per_unit"]["ops_per_minute"],
                               250.0 / (opm / 60.0), delta=1e-9)
        self.assertEqual(p["windows"][1]["label"], "1s-3s")
        # storebench's own summary follows DVD Store 3's console on stderr (docs/fidelity.md).
        self.assertIn("power measured: 250.0 W average", r.stderr)
        self.assertIn("OPS_PER_MINUTE/W", r.stderr)
        self.assertNotIn("power measured", r.stdout)
        marks = [m["mark"] for m in p["marks"]]
        self.assertEqual(marks[0], "warmup")
        self.assertIn("measure", marks)
        self.assertIn("window 1s-3s start", marks)
        self.assertEqual(marks[-1], "stop")
        # The marks reached the meter as PTDaemon's Go commands.
        self.assertIn("Go,1000,0,measure", commands)
        self.assertIn("Go,1000,0,window 1s-3s start", commands)
        self.assertIn("Watts", commands)
        with open(csv) as f:
            lines = f.read().splitlines()
        # The power columns: the sum, then one per source (other columns may follow them).
        header = next(csv_module.reader([lines[0]]))
        at = header.index("power_w")
        self.assertEqual(header[at + 1:at + 3],
                         ["power_w ptd://127.0.0.1:%d" % sim.port, 'power_w cmd:"echo 50 W"'])
        rows = [next(csv_module.reader([line])) for line in lines[1:]]
        self.assertTrue(any(row[at] == "250" for row in rows), lines)

    def test_a_meter_that_stops_answering_is_recorded_and_the_run_goes_on(self):
        r = self.runs["hang"].result()
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(self.hang_out) as f:
            doc = json.load(f)
        src = doc["power"]["sources"][0]
        self.assertGreater(src["readings"], 0)
        self.assertGreater(src["missing"], 0)
        self.assertEqual(len(src["missing_at_sec"]), src["missing"])
        self.assertTrue(any("no answer within 300 ms" in e for e in src["errors"]), src["errors"])
        self.assertGreater(doc["measured_sec"], 3.5)  # the run was not cut short

    def test_a_plan_measures_power_once_for_all_instances(self):
        r = self.runs["plan"].result()
        out = self.plan_out
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(out) as f:
            doc = json.load(f)
        check_schema(self, out)
        self.assertEqual(len(doc["instances"]), 2)
        self.assertAlmostEqual(doc["power"]["windows"][0]["avg_w"], 90.0, places=9)
        # The aggregate's per-watt figure is the aggregate headline over the machines' power.
        self.assertAlmostEqual(doc["power"]["windows"][0]["per_watt"]["ops"],
                               doc["headlines"]["ops"] / 90.0,
                               delta=1e-9 * doc["headlines"]["ops"])
        for inst in doc["instances"]:
            self.assertNotIn("power", inst)

    def test_consolidate_measures_power_in_every_run(self):
        r = self.runs["consolidate"].result()
        self.assertEqual(r.returncode, 0, r.stderr)
        runs = os.path.join(os.path.dirname(self.search), "search-runs")
        names = sorted(os.listdir(runs))
        self.assertEqual(names, ["n1-run1.json", "n2-run1.json"])
        for name in names:
            with open(os.path.join(runs, name)) as f:
                doc = json.load(f)
            self.assertAlmostEqual(doc["power"]["windows"][0]["avg_w"], 12.0, places=9, msg=name)

    def test_io_run_reports_iops_per_watt_per_test(self):
        r = self.io_prepare
        self.assertEqual(r.returncode, 0, r.stderr)
        r = self.runs["io"].result()
        out, csv = self.io_out, self.io_csv
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(out) as f:
            doc = json.load(f)
        check_schema(self, out)
        w = doc["power"]["windows"][0]
        self.assertEqual(w["label"], doc["storage"][0]["name"])
        self.assertAlmostEqual(w["avg_w"], 40.0, places=9)
        iops = w["per_watt"]["iops"] * 40.0
        self.assertGreater(iops, 0)
        self.assertAlmostEqual(w["joules_per_unit"]["iops"], 40.0 / iops, places=12)
        self.assertIn("IOPS/W", r.stdout)
        with open(csv) as f:
            lines = f.read().splitlines()
        self.assertTrue(lines[0].endswith(',power_w,"power_w cmd:""echo 40"""'), lines[0])
        self.assertTrue(any(line.endswith(",40,40") for line in lines[1:]), lines)


class PowerRefusalTest(unittest.TestCase):
    def refused(self, spec, words):
        out = tmp_path("it-power-refused.json")
        if os.path.exists(out):
            os.remove(out)
        r = storebench("oltp", "run", "--workload=noop", "--db", "null://", "--warmup_time", "0",
                       "--run_time", "2s", "--power", spec, "--json", out)
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        lines = r.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, r.stderr)
        self.assertIn(words, lines[0])
        self.assertFalse(os.path.exists(out), "no run may happen")
        return lines[0]

    def test_unknown_scheme(self):
        self.refused("snmp://pdu1", "power source 'snmp:...' has an unknown scheme")

    def test_unreachable_ptdaemon(self):
        sim = PtdSimulator()
        port = sim.port
        sim.close()
        self.refused("ptd://127.0.0.1:%d" % port,
                     "power source ptd://127.0.0.1:%d: cannot connect" % port)

    def test_absent_rapl_tree(self):
        self.refused("rapl:?root=/nonexistent/powercap",
                     "power source rapl: there is no powercap tree at /nonexistent/powercap")

    def test_a_password_in_the_spec_is_refused_and_not_repeated(self):
        line = self.refused("ipmi://admin:Sup3rSecretPw@bmc1", "password_file")
        self.assertNotIn("Sup3rSecretPw", line)


class BasicAuthBmc(http.server.BaseHTTPRequestHandler):
    password = "Redfish-It-Secret-9"
    docs = {
        "/redfish/v1/Chassis": {"Members": [{"@odata.id": "/redfish/v1/Chassis/1"}]},
        "/redfish/v1/Chassis/1": {"Power": {"@odata.id": "/redfish/v1/Chassis/1/Power"}},
        "/redfish/v1/Chassis/1/Power": {"PowerControl": [{"PowerConsumedWatts": 333}]},
    }

    def do_GET(self):
        want = "Basic " + base64.b64encode(("admin:" + self.password).encode()).decode()
        if self.headers.get("Authorization") != want:
            self.send_response(401)
            self.end_headers()
            return
        doc = self.docs.get(self.path)
        if doc is None:
            self.send_response(404)
            self.end_headers()
            return
        body = json.dumps(doc).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


class PowerCommandTest(unittest.TestCase):
    """power log and power idle (started in setUpModule)."""
    server = None

    @classmethod
    def start_runs(cls):
        cls.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), BasicAuthBmc)
        threading.Thread(target=cls.server.serve_forever, daemon=True).start()
        cls.ptd = PowerRunTest.sim("--watts", "120")
        cls.log_out, cls.log_csv = tmp_path("it-power-log.json"), tmp_path("it-power-log.csv")
        env = dict(os.environ, SB_IT_BMC_PW=BasicAuthBmc.password)
        PowerRunTest.runs["log"] = cls.log_run = harness.storebench_started(
            "power", "log", "--duration", "3s", "--power",
            "redfish://admin@127.0.0.1:%d?scheme=http&password_env=SB_IT_BMC_PW"
            % cls.server.server_address[1], "--json", cls.log_out, "--csv", cls.log_csv,
            env=env)
        cls.log2_out = tmp_path("it-power-log2.json")
        PowerRunTest.runs["log2"] = cls.log2_run = harness.storebench_started(
            "power", "log", "--duration", "2s", "--power", "ptd://127.0.0.1:%d" % cls.ptd.port,
            "--json", cls.log2_out)
        cls.idle_out = tmp_path("it-power-idle.json")
        # Repetitions of 1 s, not 2 s, settling 200 ms: each repetition settles and measures in
        # turn.
        PowerRunTest.runs["idle"] = cls.idle_run = harness.storebench_started(
            "power", "idle", "--settle", "200ms", "--duration", "1s", "--repeat", "3", "--power",
            'cmd:"echo 75.5"', "--json", cls.idle_out)

    def test_power_log_over_redfish_never_shows_the_password(self):
        r = self.log_run.result()
        out, csv = self.log_out, self.log_csv
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(out) as f:
            text = f.read()
        with open(csv) as f:
            csv_text = f.read()
        for where in (r.stdout, r.stderr, text, csv_text):
            self.assertNotIn(BasicAuthBmc.password, where)
        doc = json.loads(text)
        check_schema(self, out)
        self.assertEqual(doc["workload"], "power_log")
        self.assertAlmostEqual(doc["power"]["windows"][0]["avg_w"], 333.0, places=9)
        self.assertIn("BMC-reported", doc["power"]["sources"][0]["note"])
        # Per-second lines as they come (which seconds a loaded machine samples is not asserted).
        self.assertRegex(r.stderr, r"power \d+ s: 333\.0  sum 333\.0 W")

    def test_power_log_for_2s_averages_2_seconds_with_ptdaemons_uncertainty(self):
        # The readings of the two seconds (at 1 s and 2 s), not the one taken at the start;
        # PTDaemon's "Uncertainty,0.0123" fills the source's uncertainty.
        r = self.log2_run.result()
        out = self.log2_out
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("power log: 120.0 W average over 2 s,", r.stdout)
        with open(out) as f:
            doc = json.load(f)
        check_schema(self, out)
        self.assertEqual(doc["power"]["windows"][0]["seconds"], 2)
        self.assertAlmostEqual(doc["power"]["windows"][0]["end_sec"], 2.0, places=9)
        self.assertAlmostEqual(doc["power"]["sources"][0]["uncertainty"], 0.0123, places=9)

    def test_power_idle_is_the_median_of_repetitions(self):
        r = self.idle_run.result()
        out = self.idle_out
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(out) as f:
            doc = json.load(f)
        check_schema(self, out)
        self.assertEqual(doc["workload"], "power_idle")
        self.assertEqual(doc["headline"], {"name": "idle_w", "value": 75.5})
        labels = [w["label"] for w in doc["power"]["windows"]]
        self.assertEqual(labels, ["idle 1", "idle 2", "idle 3"])
        for w in doc["power"]["windows"]:
            self.assertAlmostEqual(w["avg_w"], 75.5, places=9)
            self.assertAlmostEqual(w["end_sec"] - w["start_sec"], 1.0, places=9)
            self.assertEqual(w["seconds"], 1)  # the reading of its one second, no more
        self.assertIn("idle: 75.5 W (median of 3 repetition(s))", r.stdout)
        marks = [m["mark"] for m in doc["power"]["marks"]]
        self.assertEqual(marks[:2], ["settle 1", "idle 1"])


if __name__ == "__main__":
    harness.main()
