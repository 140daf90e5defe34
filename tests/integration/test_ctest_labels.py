"""The ctest labels (tests/CMakeLists.txt, README: Development): every test has exactly one of
unit, server, integration, browser, slow, so `ctest -L unit` (make check) runs no test that needs
a server, Chromium or the binary. Read from the build this test belongs to (ctest
--show-only=json-v1 in the directory of --binary)."""
import json
import os
import re
import shutil
import subprocess
import tempfile
import unittest

import harness

LABELS = {"unit", "server", "integration", "browser", "slow"}
# What a Python test file calls when one of its cases needs a server.
# A parameterized GoogleTest case as ctest names it: "Suite.Case/param  # GetParam() = ...".
PARAM = r"/{}(  #.*)?$"
SERVER_USE = re.compile(r"harness\.(require_server|server_url|env_url)\(|STOREBENCH_(PG|MYSQL)_URL")


def ctest_properties():
    """Every test's properties by name (LABELS, COST, RESOURCE_LOCK, ...)."""
    build = os.path.dirname(os.path.abspath(harness.ARGS.binary))
    # From a copy of the build's CTestTestfile.cmake tree: ctest rewrites
    # Testing/Temporary/LastTest.log where it runs, and in the build itself that would wipe the
    # log of the `make test` this test is part of (every failure's output).
    with tempfile.TemporaryDirectory() as shadow:
        for root, _, files in os.walk(build):
            if "CTestTestfile.cmake" in files:
                dest = os.path.join(shadow, os.path.relpath(root, build))
                os.makedirs(dest, exist_ok=True)
                shutil.copy(os.path.join(root, "CTestTestfile.cmake"), dest)
        out = subprocess.run(["ctest", "--show-only=json-v1"], cwd=shadow, capture_output=True,
                             text=True, check=True).stdout
    tests = {}
    for t in json.loads(out)["tests"]:
        # A test program not built is one placeholder test that fails by itself.
        if t["name"].endswith("_NOT_BUILT"):
            continue
        tests[t["name"]] = {p["name"]: p["value"] for p in t.get("properties", [])}
    return tests


def ctest_tests():
    return {name: props.get("LABELS", []) for name, props in ctest_properties().items()}


class CtestLabelsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tests = ctest_tests()

    def label(self, name):
        self.assertIn(name, self.tests)
        return self.tests[name][0]

    def test_every_test_has_exactly_one_known_label(self):
        self.assertGreater(len(self.tests), 100)
        for name, labels in self.tests.items():
            with self.subTest(name):
                self.assertEqual(len(labels), 1, labels)
                self.assertIn(labels[0], LABELS)

    def test_unit_tests_are_googletest_cases_on_no_server(self):
        units = [n for n, l in self.tests.items() if l == ["unit"]]
        self.assertGreater(len(units), 100)
        for name in units:
            with self.subTest(name):
                self.assertFalse(name.startswith("integration."))
                self.assertNotRegex(name, PARAM.format("(postgres|mariadb)[a-z_]*"))
                self.assertNotRegex(name, r"^(Postgres|Mysql)Backend")

    def test_server_and_sqlite_cases_of_one_suite(self):
        conformance = [n for n in self.tests if n.startswith("AllBackends/ConformanceTest.")]
        self.assertTrue(conformance)
        for name in conformance:
            with self.subTest(name):
                # Only the server engines need a server; sqlite, null and the skeleton do not.
                server = re.search(PARAM.format("(postgres|mariadb)"), name)
                self.assertEqual(self.label(name), "server" if server else "unit")

    def test_stored_procedure_cases_are_server_cases(self):
        procedures = [n for n in self.tests if re.search(PARAM.format("[a-z]+_procedures"), n)
                      and n.startswith("AllBackends/DvdStoreConformanceTest.")]
        self.assertTrue(procedures)
        for name in procedures:
            with self.subTest(name):
                self.assertEqual(self.label(name), "server")

    def test_slow_cases_of_a_program_and_their_fast_neighbours(self):
        self.assertEqual(self.label("SessionTest.SameSeedSameOperationsAndSameRows"), "slow")
        self.assertEqual(self.label("generator_data_test"), "slow")
        txn = [n for n in self.tests if n.startswith("Engines/TpccTxnTest.")]
        self.assertTrue(txn)
        for name in txn:
            with self.subTest(name):
                expected = "slow" if re.search(PARAM.format("sqlite"), name) else "server"
                self.assertEqual(self.label(name), expected)

    def test_make_check_runs_the_unit_label_only(self):
        p = subprocess.run(["make", "--no-print-directory", "-C", harness.ARGS.source, "-n",
                            "check", "BUILD_DIR=" + harness.ARGS.tmp], capture_output=True,
                           text=True, timeout=60)
        self.assertEqual(p.returncode, 0, p.stderr)
        ctest = [line for line in p.stdout.splitlines() if "ctest" in line]
        self.assertEqual(len(ctest), 1, p.stdout)
        self.assertIn("-L '^unit$'", ctest[0])
        self.assertNotIn("services.sh", p.stdout)  # no servers started for it

    def test_python_tests_by_what_they_need(self):
        self.assertEqual(self.label("integration.test_report_browser"), "browser")
        self.assertEqual(self.label("integration.test_restore.SqliteRestoreTest"), "integration")
        self.assertEqual(self.label("integration.test_restore.PostgresRestoreTest"), "server")
        self.assertEqual(self.label("integration.test_restore.MariadbRestoreTest"), "server")
        self.assertEqual(self.label("integration.test_oltp_sqlite"), "integration")

    def test_tpcc_classes_lock_only_the_servers_database(self):
        # One entry per class: the SQLite and null ones run beside the sbtest_tpcc users.
        props = ctest_properties()
        for cls in ("TpccSqliteTest", "TpccNullTest"):
            with self.subTest(cls):
                self.assertEqual(self.label("integration.test_tpcc." + cls), "integration")
                self.assertNotIn("RESOURCE_LOCK", props["integration.test_tpcc." + cls])
        for cls in ("TpccPostgresTest", "TpccMariaDbTest"):
            with self.subTest(cls):
                self.assertEqual(self.label("integration.test_tpcc." + cls), "server")
                self.assertEqual(props["integration.test_tpcc." + cls]["RESOURCE_LOCK"],
                                 ["sbtest_tpcc"])

    def test_fault_tests_lock_what_they_restart(self):
        # The main servers' restarts stop every other test; an instance server's only its users.
        props = ctest_properties()
        for name in ("test_fault_restart", "test_fault_postgres_load"):
            with self.subTest(name):
                self.assertTrue(props["integration." + name].get("RUN_SERIAL"))
        for name, locks in (("test_fault_instance_restart", ["sb_pg_instance1", "sb_pg_instance2"]),
                            ("test_fault_tpcc_restart", ["sb_my_instance3", "sb_pg_instance3"])):
            with self.subTest(name):
                self.assertFalse(props["integration." + name].get("RUN_SERIAL"))
                self.assertEqual(sorted(props["integration." + name]["RESOURCE_LOCK"]), locks)
        # Its instance-plan case lists the running PostgreSQL instance servers: none may be
        # restarting (1 and 3 are).
        self.assertEqual(sorted(props["integration.test_plan_fit"]["RESOURCE_LOCK"]),
                         ["sb_pg_instance1", "sb_pg_instance3"])

    def test_long_tests_start_first_on_a_clean_clone(self):
        # Without CTestCostData.txt ctest orders by COST: the long entries and the slow and
        # server GoogleTest cases before the many short cases (cost 0).
        props = ctest_properties()
        cost = lambda name: float(props[name].get("COST", 0))
        for name in ("integration.test_readme_commands", "integration.test_dvdstore_ds3compat",
                     "integration.test_restore.PostgresRestoreTest",
                     "integration.test_tpcc.TpccSqliteTest"):
            with self.subTest(name):
                self.assertGreaterEqual(cost(name), 20)
        self.assertGreater(cost("SessionTest.SameSeedSameOperationsAndSameRows"), 0)
        server_cases = [n for n in props if n.startswith("Engines/TpccTxnTest.") and
                        re.search(PARAM.format("(postgres|mariadb)"), n)]
        self.assertTrue(server_cases)
        for name in server_cases:
            self.assertGreater(cost(name), 0, name)
        short = [n for n, l in self.tests.items() if l == ["unit"]]
        self.assertTrue(all(cost(n) == 0 for n in short))

    def test_a_python_file_that_uses_a_server_is_labelled_server(self):
        # A new server test added without its label would run in a server-less selection.
        directory = os.path.join(harness.ARGS.source, "tests", "integration")
        for file in sorted(os.listdir(directory)):
            if not (file.startswith("test_") and file.endswith(".py")) or file in (
                    "test_harness.py", "test_ctest_labels.py"):
                continue
            with open(os.path.join(directory, file)) as f:
                uses_server = SERVER_USE.search(f.read()) is not None
            stem = "integration." + file[:-3]
            entries = [n for n in self.tests if n == stem or n.startswith(stem + ".")]
            with self.subTest(file):
                self.assertTrue(entries)
                labels = {self.tests[n][0] for n in entries}
                if uses_server:
                    self.assertIn("server", labels)
                else:
                    self.assertNotIn("server", labels)


if __name__ == "__main__":
    harness.main()
