"""The README's command lists as a user copies them, both the Commands section (which
test_readme_commands.py runs) and "Longer runs and other hardware" (which needs what a test
machine lacks: a power meter, several hosts, a BMC, or minutes): every file they name exists,
they use the DSNs scripts/services.sh prints instead of fixed ports, and every storebench
command line in them (also one started by mpirun) names options that command has (checked
against its --help, which lists every workload's options)."""
import os
import re
import shlex
import unittest

import harness
from harness import storebench

SECTIONS = ("Commands", "Longer runs and other hardware")


def commands(title):
    """The command lines of the code blocks of README section `## title`: comments dropped,
    continued lines joined, here-document bodies left out."""
    with open(os.path.join(harness.ARGS.source, "README.md")) as f:
        text = f.read()
    body = re.search(r"^## " + re.escape(title) + r"\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    assert body, f"README.md has no section '## {title}'"
    lines, current, heredoc = [], "", None
    for block in re.findall(r"^```\n(.*?)^```", body.group(1), re.S | re.M):
        for line in block.splitlines():
            if heredoc:
                heredoc = None if line == heredoc else heredoc
                continue
            line = line.split("  #")[0].rstrip() if not line.startswith("#") else ""
            m = re.search(r"<<(\w+)$", line)
            if m:
                heredoc = m.group(1)
            current += line.rstrip("\\")
            if not line.endswith("\\"):
                if current.strip():
                    lines.append(current.strip())
                current = ""
    return lines


class ReadmeTest(unittest.TestCase):
    def test_no_fixed_server_ports_and_every_file_exists(self):
        lines = [line for title in SECTIONS for line in commands(title)]
        self.assertTrue(lines)
        for line in lines:
            self.assertNotRegex(line, r":(5432|3306)/", line)
            for path in re.findall(r"(?:docs|tests)/[\w./-]+", line):
                self.assertTrue(os.path.exists(os.path.join(harness.ARGS.source, path)), line)

    def test_every_option_is_one_the_command_has(self):
        helps = {}
        for line in [line for title in SECTIONS for line in commands(title)]:
            # mpirun's own options come before the program; storebench-mpi has storebench's
            # commands and options.
            line = re.sub(r"^mpirun .*? (?=build/storebench-mpi )", "", line)
            line = re.sub(r"^build/storebench-mpi ", "build/storebench ", line)
            if not line.startswith("build/storebench "):
                continue
            words = shlex.split(line.replace("$", "X"))[1:]
            if "--" in words:  # exec's command
                words = words[:words.index("--")]
            verbs = [w for w in words[:2] if re.fullmatch(r"[a-z]+", w)]
            key = " ".join(verbs)
            if key not in helps:
                r = storebench(*verbs, "--help")
                self.assertEqual(r.returncode, 0, (line, r.stderr))
                helps[key] = r.stdout.replace("-", "_")
                # A plan's runs take every option of oltp run (their --help says so).
                if key in ("run", "consolidate"):
                    helps[key] += storebench("oltp", "run", "--help").stdout.replace("-", "_")
            for w in words:
                if w.startswith("--") and w != "--help":
                    name = w[2:].split("=")[0].replace("-", "_")
                    self.assertIn("__" + name, helps[key], (line, name))


if __name__ == "__main__":
    harness.main()
