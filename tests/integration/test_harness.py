"""The test harness itself: a file whose every case skipped is reported to ctest as skipped
(exit 77, SKIP_RETURN_CODE), and no test guesses a server's address when the DSNs of
scripts/services.sh env are not set."""
import os
import subprocess
import sys
import textwrap
import unittest

import harness
from harness import tmp_path

HERE = os.path.dirname(os.path.abspath(__file__))


def run_file(name, body, env=None):
    path = tmp_path(name)
    with open(path, "w") as f:
        f.write(textwrap.dedent(body))
    e = dict(os.environ, PYTHONPATH=HERE)
    e.update(env or {})
    return subprocess.run([sys.executable, path, "--binary", harness.ARGS.binary, "--source",
                           harness.ARGS.source, "--tmp", harness.ARGS.tmp],
                          capture_output=True, text=True, timeout=60, env=e)


class HarnessTest(unittest.TestCase):
    def test_a_file_whose_every_case_skipped_exits_77(self):
        r = run_file("harness_all_skip.py", """
            import unittest, harness
            class T(unittest.TestCase):
                def test_one(self): self.skipTest("no server")
                def test_two(self): self.skipTest("no server")
            harness.main()
            """)
        self.assertEqual(r.returncode, harness.SKIPPED_EXIT, r.stderr)

    def test_a_class_skipped_in_set_up_class_counts_as_skipped(self):
        r = run_file("harness_class_skip.py", """
            import unittest, harness
            class T(unittest.TestCase):
                @classmethod
                def setUpClass(cls): raise unittest.SkipTest("no server")
                def test_one(self): pass
            harness.main()
            """)
        self.assertEqual(r.returncode, harness.SKIPPED_EXIT, r.stderr)

    def test_one_case_run_is_a_pass_and_a_failure_fails(self):
        r = run_file("harness_some_run.py", """
            import unittest, harness
            class T(unittest.TestCase):
                def test_one(self): self.skipTest("no server")
                def test_two(self): self.assertTrue(True)
            harness.main()
            """)
        self.assertEqual(r.returncode, 0, r.stderr)
        r = run_file("harness_fail.py", """
            import unittest, harness
            class T(unittest.TestCase):
                def test_one(self): self.assertTrue(False)
            harness.main()
            """)
        self.assertEqual(r.returncode, 1, r.stderr)

    def test_no_server_address_is_guessed(self):
        r = run_file("harness_env.py", """
            import unittest, harness
            class T(unittest.TestCase):
                def test_unset(self):
                    self.assertEqual(harness.server_url("STOREBENCH_PG_URL", "x"), "")
                    self.assertFalse(harness.reachable(""))
                    self.assertIn("STOREBENCH_PG_URL", harness.no_server_message(""))
                def test_set(self):
                    self.assertEqual(harness.server_url("STOREBENCH_MYSQL_URL", "sbtest_x"),
                                     "mysql://u@127.0.0.1:13306/sbtest_x")
            harness.main()
            """, env={"STOREBENCH_PG_URL": "",
                      "STOREBENCH_MYSQL_URL": "mysql://u@127.0.0.1:13306/storebench_test"})
        self.assertEqual(r.returncode, 0, r.stderr)


if __name__ == "__main__":
    harness.main()
