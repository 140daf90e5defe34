"""--help is complete and consistent: every subcommand answers with exit 0, the top-level usage
names every command and URL scheme, a database command's help lists the options of every
workload, and no help line contradicts itself."""
import unittest

import harness
from harness import storebench


class HelpTest(unittest.TestCase):
    def test_every_subcommand_answers_help_with_exit_0(self):
        commands = [["--help"], ["help"], ["oltp", "--help"], ["io", "--help"], ["run", "--help"],
                    ["consolidate", "--help"], ["version"]]
        for verb in ("load", "run", "verify", "pristine", "restore", "prepare", "cleanup"):
            commands.append(["oltp", verb, "--help"])
        for verb in ("prepare", "run", "verify"):
            commands.append(["io", verb, "--help"])
        for args in commands:
            r = storebench(*args)
            self.assertEqual(r.returncode, 0, (args, r.stderr))
            self.assertTrue(r.stdout.strip(), args)

    def test_usage_names_every_command_and_url_scheme(self):
        r = storebench("--help")
        for word in ("oltp load", "prepare|run|cleanup", "io prepare|run|verify", "run --plan",
                     "consolidate", "version", "sqlite:///", "postgresql://", "mysql://",
                     "null://"):
            self.assertIn(word, r.stdout)

    def test_database_help_lists_every_workloads_options(self):
        r = storebench("oltp", "run", "--help")
        for option in ("--db_size", "--n_threads", "--tables", "--table_size", "--pgsql_host",
                       "--percentile", "with --workload oltp"):
            self.assertIn(option, r.stdout)
        # The time rule is stated where the options are.
        self.assertIn("minutes as --run_time (DVD Store) and seconds as --duration or --time",
                      r.stdout)

    def test_no_help_line_contradicts_itself(self):
        for args in (["oltp", "run", "--help"], ["io", "run", "--help"],
                     ["io", "verify", "--help"]):
            r = storebench(*args)
            for line in r.stdout.splitlines():
                self.assertFalse("(no default)" in line and "(default" in line.split(
                    "(no default)", 1)[1], (args, line))
        r = storebench("io", "run", "--help")
        self.assertNotIn("DVD Store", r.stdout)
        r = storebench("io", "verify", "--help")
        self.assertIn("--verify_phase  (default read)", r.stdout)


if __name__ == "__main__":
    harness.main()
