"""The README's Commands section as a user copies it: every file it names exists, it uses the
DSNs scripts/services.sh prints instead of fixed ports, and every storebench command line in
it names options that command has (checked against its --help, which lists every workload's
options). The commands themselves are not run here: together they load and run for minutes."""
import os
import re
import shlex
import unittest

import harness
from harness import storebench


def commands():
    with open(os.path.join(harness.ARGS.source, "README.md")) as f:
        text = f.read()
    block = re.search(r"## Commands\n.*?```\n(.*?)```", text, re.S).group(1)
    lines, current = [], ""
    for line in block.splitlines():
        line = line.split("  #")[0].rstrip() if not line.startswith("#") else ""
        current += line.rstrip("\\")
        if not line.endswith("\\"):
            if current.strip():
                lines.append(current.strip())
            current = ""
    return lines


class ReadmeTest(unittest.TestCase):
    def test_no_fixed_server_ports_and_every_file_exists(self):
        lines = commands()
        self.assertTrue(lines)
        for line in lines:
            self.assertNotRegex(line, r":(5432|3306)/", line)
            for path in re.findall(r"(?:docs|tests)/[\w./-]+", line):
                self.assertTrue(os.path.exists(os.path.join(harness.ARGS.source, path)), line)

    def test_every_option_is_one_the_command_has(self):
        helps = {}
        for line in commands():
            if not line.startswith("build/storebench "):
                continue
            words = shlex.split(line.replace("$", "X"))[1:]
            verbs = [w for w in words[:2] if not w.startswith("--")]
            key = " ".join(verbs)
            if key not in helps:
                r = storebench(*verbs, "--help")
                self.assertEqual(r.returncode, 0, (line, r.stderr))
                helps[key] = r.stdout.replace("-", "_")
            for w in words:
                if w.startswith("--") and w != "--help":
                    name = w[2:].split("=")[0].replace("-", "_")
                    self.assertIn("__" + name, helps[key], (line, name))


if __name__ == "__main__":
    harness.main()
