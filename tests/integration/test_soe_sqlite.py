"""The Order Entry workload (--workload soe) end to end on SQLite: load, run with charbench
lines and the JSON result, verify, the VMware FT paper's Swingbench configuration, a plan file
naming the workload, and bad input (exit 2 with one sentence)."""
import json
import os
import unittest

import jsonschema

import harness
from harness import storebench, tmp_path


def fresh_db(name):
    db = tmp_path(name)
    harness.remove_sqlite(db, ("", "-wal", "-shm", ".storebench-lock"))
    return "sqlite://" + db


class SoeSqliteTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.url = fresh_db("it-soe.db")
        cls.common = ["--workload", "soe", "--db", cls.url]
        r = storebench("oltp", "load", *cls.common, "--soe_scale", "0.002")
        assert r.returncode == 0, r.stderr
        with open(os.path.join(harness.ARGS.source, "docs", "output-schema.json")) as f:
            cls.schema = json.load(f)

    def run_json(self, *args):
        out = tmp_path("it-soe-run.json")
        if os.path.exists(out):
            os.remove(out)
        r = storebench("oltp", "run", *self.common, "--warmup_time", "0", "--json", out, *args)
        doc = None
        if os.path.exists(out):
            with open(out) as f:
                doc = json.load(f)
        return r, doc

    shared = None

    def charbench_run(self):
        """A 2-s run with charbench lines every second, every transaction weighted, and its
        Swingbench results file: shared by the cases that read different parts of it (a run
        each took ~4 s). Returns (the process, the result, the results file)."""
        if type(self).shared is None:
            xml = tmp_path("it-soe-results.xml")
            if os.path.exists(xml):
                os.remove(xml)
            r, doc = self.run_json("--n_threads", "2", "--run_time", "2s", "--log_freq", "1",
                                   "--weight_sq", "1", "--weight_wq", "1", "--weight_wa", "1",
                                   "--results_xml", xml)
            type(self).shared = (r, doc, xml)
        return type(self).shared

    def test_load_refuses_to_replace_without_force(self):
        r = storebench("oltp", "load", *self.common, "--soe_scale", "0.002")
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("--force", r.stderr)

    def test_run_prints_charbench_lines_and_writes_the_result(self):
        r, doc, _ = self.charbench_run()
        self.assertEqual(r.returncode, 0, r.stderr)
        header = [l for l in r.stderr.splitlines() if l.startswith("Time ")]
        self.assertEqual(len(header), 1, r.stderr)
        self.assertEqual(header[0].split()[:5], ["Time", "Users", "TPM", "TPS", "Errors"])
        self.assertEqual(header[0].split()[5:],
                         ["NCR", "UCD", "BP", "OP", "PO", "BO", "SQ", "WQ", "WA"])
        jsonschema.validate(doc, self.schema)
        self.assertEqual(doc["workload"], "soe")
        self.assertEqual(sorted(doc["headlines"]), ["tpm", "tps"])
        fig = doc["figures"]
        self.assertAlmostEqual(doc["headlines"]["tpm"], 60 * doc["headlines"]["tps"], delta=1)
        self.assertGreater(fig["completed_transactions"], 0)
        self.assertEqual(fig["failed_transactions"], 0)
        self.assertEqual(fig["completed_transactions"],
                         sum(fig["n_" + t] for t in
                             ("NCR", "UCD", "BP", "OP", "PO", "BO", "SQ", "WQ", "WA")))
        self.assertIn("maximum_tpm", fig)
        # One number, whole transactions per minute, in the figure and charbench's summary.
        self.assertEqual(fig["maximum_tpm"], int(fig["maximum_tpm"]))
        self.assertIn("maximum TPM %d\n" % fig["maximum_tpm"], r.stdout)
        self.assertTrue(all(c["passed"] for c in doc["verify"]), doc["verify"])
        self.assertIn("Completed transactions", r.stdout)
        self.assertIn("query_timeout", doc["choices"])
        self.assertTrue(doc["choices"]["soe_variant"].startswith("plsql21:"), doc["choices"])
        # The run's config records the scale that ran, the database's, not the option's default.
        self.assertEqual(doc["config"]["soe_scale"], 0.002)
        r = storebench("oltp", "verify", *self.common)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)

    def test_results_xml_reads_as_swingbenchs(self):
        # Read the way Swingbench's own parse_results.py reads a results file (the first element
        # of a name, Result elements by their id attribute), then checked against the JSON.
        from xml.dom import minidom
        r, doc, xml = self.charbench_run()
        self.assertEqual(r.returncode, 0, r.stderr)
        dom = minidom.parse(xml)
        self.assertEqual(dom.documentElement.tagName, "Results")
        self.assertEqual(dom.documentElement.getAttribute("xmlns"),
                         "http://www.dominicgiles.com/swingbench")
        first = lambda name: dom.getElementsByTagName(name)[0].firstChild.data
        fig = doc["figures"]
        self.assertEqual(int(first("TotalCompletedTransactions")), fig["completed_transactions"])
        self.assertEqual(int(first("TotalFailedTransactions")), fig["failed_transactions"])
        self.assertAlmostEqual(float(first("AverageTransactionsPerSecond")), fig["average_tps"],
                               delta=0.005)
        self.assertEqual(int(first("MaximumTransactionRate")), fig["maximum_tpm"])
        self.assertEqual(first("TotalRunTime"), "0:00:02")  # the run's --run_time
        # The connect phase, measured: as long as it took, never left at 0.
        self.assertGreater(doc["workers"]["connect_sec"], 0)
        h, m, sec = first("TotalLogonTime").split(":")
        self.assertAlmostEqual(int(h) * 3600 + int(m) * 60 + float(sec),
                               doc["workers"]["connect_sec"], delta=0.001)
        ops = {o["type"]: o for o in doc["operations"]}
        results = {e.getAttribute("id"): e for e in dom.getElementsByTagName("Result")}
        self.assertIn("Customer Registration", results)
        self.assertIn("Browse Products", results)
        for e in results.values():
            text = lambda name: e.getElementsByTagName(name)[0].firstChild.data
            short = {"Customer Registration": "NCR", "Browse Products": "BP",
                     "Order Products": "OP", "Process Orders": "PO", "Browse Orders": "BO",
                     "Update Customer Details": "UCD", "Sales Rep Query": "SQ",
                     "Warehouse Query": "WQ", "Warehouse Activity Query": "WA"}.get(
                         e.getAttribute("id"))
            self.assertIsNotNone(short, e.getAttribute("id"))
            self.assertEqual(int(text("TransactionCount")), ops[short]["count"])
            self.assertAlmostEqual(float(text("AverageResponse")), ops[short]["mean_ms"],
                                   delta=0.006)
            self.assertAlmostEqual(float(text("NinetiethPercentile")), ops[short]["p90_ms"],
                                   delta=0.006)
            self.assertLessEqual(float(text("TenthPercentile")), float(text("FiftiethPercentile")))
        self.assertEqual(int(first("SelectStatements")), doc["counters"]["selects"])
        readings = [int(v) for v in first("TPSReadings").split(",")[1::2]]
        self.assertEqual(sum(readings), fig["completed_transactions"])

    def test_op_log_names_each_transaction(self):
        # One line per transaction, named by its short name (not "transaction" for all).
        ops = tmp_path("it-soe-ops.txt")
        r, _ = self.run_json("--run_time", "1s", "--n_threads", "2", "--op_log", ops)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(ops) as f:
            names = {line.split()[1] for line in f if not line.startswith("#")}
        self.assertTrue(names, "no operation logged")
        self.assertTrue(names <= {"NCR", "UCD", "BP", "OP", "PO", "BO", "SQ", "WQ", "WA"}, names)
        self.assertIn("BP", names)

    def test_paper_configuration_runs(self):
        xml = os.path.join(harness.ARGS.source, "docs", "examples", "soe_vmware_ft.xml")
        # The paper's configuration, shortened and with shorter think times for a test, with the
        # JDBC classes' constants (1-24 products per BP, 5-10 PO status, 4 BO lines).
        # 1 s: hundreds of transactions, Browse Products among them (3 s took 2 s more).
        r, doc = self.run_json("--config_file", xml, "--n_threads", "8", "--run_time", "1s",
                               "--min_delay", "1", "--max_delay", "5", "--soe_variant", "jdbc")
        self.assertEqual(r.returncode, 0, r.stderr)
        warnings = [l for l in r.stderr.splitlines() if l.startswith("warning: the Swingbench")]
        self.assertEqual(len(warnings), 1, r.stderr)
        self.assertIn("Connection/ConnectString", warnings[0])
        self.assertNotIn("change_me", r.stderr + r.stdout + json.dumps(doc))
        self.assertIn("swingbench_config_not_honoured", doc["choices"])
        self.assertTrue(doc["choices"]["soe_variant"].startswith("jdbc:"), doc["choices"])
        fig = doc["figures"]
        self.assertGreater(fig["completed_transactions"], 0)
        for t in ("OP", "UCD", "SQ", "WQ", "WA"):  # not in the paper's list
            self.assertEqual(fig["n_" + t], 0, t)
        self.assertGreater(fig["n_BP"], 0)

    def test_bad_input_exits_2_with_one_sentence(self):
        bad = tmp_path("it-soe-bad.xml")
        with open(bad, "w") as f:
            f.write("<SwingBenchConfiguration>\n<Load>\n<NumberOfUsers>4</Users>\n</Load>\n"
                    "</SwingBenchConfiguration>\n")
        cases = [
            (["--weight_bp", "-1"], "weight_bp"),
            (["--weight_ncr", "0", "--weight_ucd", "0", "--weight_bp", "0", "--weight_op", "0",
              "--weight_po", "0", "--weight_bo", "0"], "weight"),
            (["--min_delay", "300", "--max_delay", "250"], "min_delay"),
            (["--soe_scale", "0.004"], "soe_scale=0.002"),
            (["--config_file", bad], bad + ":3"),
            (["--config_file", tmp_path("it-soe-missing.xml")], "it-soe-missing.xml"),
            (["--sql_mode", "procedures"], "has no stored procedures"),
            (["--n_threads", "3", "--soe_users", "2"], "--soe_users (2) is fewer"),
        ]
        for args, words in cases:
            r = storebench("oltp", "run", *self.common, "--run_time", "1s", *args)
            self.assertEqual(r.returncode, 2, (args, r.stderr))
            lines = [l for l in r.stderr.splitlines() if l.startswith("storebench:")]
            self.assertEqual(len(lines), 1, (args, r.stderr))
            self.assertIn(words, lines[0], args)

    def test_plan_runs_the_workload(self):
        plan = tmp_path("it-soe-plan.toml")
        db = fresh_db("it-soe-plan-{i}.db")
        with open(plan, "w") as f:
            f.write(f'''[run]
warmup_time = "0s"
run_time = "1s"
log_freq = 1

[[group]]
name = "soe"
count = 2
workload = "soe"
db = "{db}"
load = true
[group.options]
soe_scale = 0.001
n_threads = 2
''')
        # 1 s: both instances complete transactions (3 s took 2 s more).
        out = tmp_path("it-soe-plan.json")
        r = storebench("run", "--plan", plan, "--json", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(out) as f:
            doc = json.load(f)
        self.assertEqual(len(doc["instances"]), 2)
        for inst in doc["instances"]:
            self.assertEqual(inst["workload"], "soe")
            self.assertGreater(inst["figures"]["completed_transactions"], 0)


if __name__ == "__main__":
    harness.main()
