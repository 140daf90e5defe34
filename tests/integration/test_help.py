"""--help is complete and consistent: every command and subcommand the usage texts name answers
--help with exit 0, the top-level usage names every command, workload and URL scheme, a database
command's help lists the options of every workload, no help line is wider than 100 columns, and
no help line contradicts itself."""
import re
import unittest

import harness
from harness import storebench

# The commands the dispatcher (src/cli/app.cc) knows; the usage must name each.
COMMANDS = ("oltp", "run", "consolidate", "io", "power", "compare", "exec", "ab", "report",
            "version")


def named_subcommands(text, command):
    """The subcommands a usage text names for `command`: the words of 'storebench CMD a|b|c'."""
    subs = []
    for m in re.finditer(r"storebench " + command + r" ([a-z]+(?:\|[a-z]+)*)(?![\w.=-])", text):
        for word in m.group(1).split("|"):
            if word not in subs:
                subs.append(word)
    return subs


def every_help_command():
    """Every command the top-level usage names and every subcommand its own --help names,
    each as the argument list that asks for its help."""
    usage = storebench("--help").stdout
    commands = []
    for m in re.finditer(r"storebench ([a-z]+)", usage):
        if m.group(1) not in commands:
            commands.append(m.group(1))
    out = [["--help"], ["help"]]
    for command in commands:
        out.append([command, "--help"])
        own = storebench(command, "--help").stdout
        for sub in named_subcommands(own, command):
            out.append([command, sub, "--help"])
    return usage, commands, out


def unwrapped(text):
    """Help text with each option's continuation lines joined to it (a phrase may be wrapped)."""
    return re.sub(r"\n {6}(?=\S)", " ", text)


class HelpTest(unittest.TestCase):
    def test_every_command_and_subcommand_answers_help_with_exit_0(self):
        usage, commands, helps = every_help_command()
        self.assertEqual(set(COMMANDS) - set(commands), set(), usage)
        # The subcommands are found from the usage texts, not listed here: these must be among.
        for args in (["oltp", "load", "--help"], ["oltp", "cleanup", "--help"],
                     ["io", "verify", "--help"], ["io", "fragtest", "--help"],
                     ["power", "idle", "--help"]):
            self.assertIn(args, helps)
        for args in helps + [["version"]]:
            r = storebench(*args)
            self.assertEqual(r.returncode, 0, (args, r.stderr))
            self.assertTrue(r.stdout.strip(), args)

    def test_usage_names_every_command_workload_and_url_scheme(self):
        r = storebench("--help")
        for word in ("oltp load", "prepare|run|cleanup", "io prepare|run|verify", "run --plan",
                     "consolidate", "version", "sqlite:///", "postgresql://", "mysql://",
                     "null://"):
            self.assertIn(word, r.stdout)
        # Each command has its line in the list of commands.
        for command in COMMANDS:
            self.assertRegex(r.stdout, r"(?m)^" + command + r" {2,}\S", command)
        # Every workload --workload accepts (its choices, from the option's own help).
        choices = re.search(r"\(dvdstore, ([a-z, ]+) or ([a-z]+)\)",
                            unwrapped(storebench("oltp", "run", "--help").stdout))
        workloads = ["dvdstore"] + choices.group(1).split(", ") + [choices.group(2)]
        self.assertIn("soe", workloads)
        for name in workloads:
            self.assertRegex(r.stdout, r"(?m)^  " + name + r" {2,}\S", name)

    def test_no_help_line_is_wider_than_100_columns(self):
        _, _, helps = every_help_command()
        for args in helps:
            for line in storebench(*args).stdout.splitlines():
                self.assertLessEqual(len(line), 100, (args, line))

    def test_database_help_lists_every_workloads_options(self):
        r = storebench("oltp", "run", "--help")
        r.stdout = unwrapped(r.stdout)
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
            for line in unwrapped(r.stdout).splitlines():
                self.assertFalse("(no default)" in line and "(default" in line.split(
                    "(no default)", 1)[1], (args, line))
        r = storebench("io", "run", "--help")
        self.assertNotIn("DVD Store", r.stdout)
        r = storebench("io", "verify", "--help")
        self.assertIn("--verify_phase  (default read)", r.stdout)


if __name__ == "__main__":
    harness.main()
