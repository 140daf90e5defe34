"""The README's Commands section, executed: its code blocks run top to bottom in one bash shell,
as a user pastes them after `make test`, and the first command that exits non-zero fails the
test naming its README line. Nothing is skipped or rewritten: a line that cannot run on a clean
clone belongs in the README's "Longer runs and other hardware" section, not in Commands.

The shell runs in a scratch directory laid out like the repository (build/storebench is the
binary under test; docs, scripts and tests are links to the source tree), so the section's
relative paths resolve as in a checkout and the files it writes (results/, $T from mktemp, with
TMPDIR pointing into the scratch directory) stay out of the source tree. The servers' DSNs are
taken out of the environment: the section's own `eval "$(scripts/services.sh env)"` must set
them, as on a user's machine. The server databases it loads (ds3, sbtest, tpcc, soe) are the
user's ones of scripts/services.sh, which no other test touches; its loads use --force, so the
section can run again.

The runner is tested too: a section with a failing command (also one continued over lines)
fails and names that line."""
import os
import re
import shutil
import subprocess
import tempfile
import unittest

import harness

# Environment variables the section must set itself (services.sh env prints them).
SERVICE_VARS = ("STOREBENCH_PG_URL", "STOREBENCH_MYSQL_URL", "STOREBENCH_PG_URLS",
                "STOREBENCH_MYSQL_URLS")
FAILED = "README_COMMAND_FAILED"
DONE = "README_COMMANDS_DONE"


def section_script(text, title="Commands"):
    """A bash script of the code blocks of section `## title` of `text` whose line k is line k
    of `text` (every other line is blank), so bash's $LINENO is the README line. Line 1 (the
    README's title) carries the prologue: stop at the first failure and say where."""
    lines = text.split("\n")
    out = [""] * len(lines)
    in_section = in_block = False
    blocks = 0
    for i, line in enumerate(lines):
        if line.startswith("## "):
            in_section = line[3:].strip() == title
            continue
        if not in_section:
            continue
        if line.startswith("```"):
            in_block = not in_block
            blocks += in_block
            continue
        if in_block:
            out[i] = line
    if blocks == 0:
        raise ValueError(f"no code block in section '## {title}'")
    if out[0]:
        raise ValueError("line 1 is part of a code block")
    # -E: the ERR trap also fires inside functions and subshells; pipefail: a failing stage
    # of a pipe fails it; -u: a misspelt variable is an error, not an empty string.
    out[0] = (f"set -eEu -o pipefail; trap 'rc=$?; echo \"{FAILED} $LINENO $rc\" >&2; "
              "exit $rc' ERR")
    out.append(f"echo {DONE}")
    return "\n".join(out) + "\n"


def command_at(text, lineno):
    """The README command that bash reported at line `lineno` (1-based), joined with the lines
    it continues over."""
    lines = text.split("\n")
    start = lineno - 1
    while start > 0 and lines[start - 1].endswith("\\"):
        start -= 1
    end = lineno - 1
    while end < len(lines) - 1 and lines[end].endswith("\\"):
        end += 1
    words = " ".join(line.rstrip("\\").strip() for line in lines[start:end + 1])
    return f"README.md:{start + 1}: {words}"


def scratch_checkout(binary, source, prefix):
    """A directory that looks like a checkout after `make test`: build/storebench and links to
    the source tree's docs, scripts and tests."""
    d = tempfile.mkdtemp(prefix=prefix, dir=os.path.abspath(harness.ARGS.tmp))
    os.mkdir(os.path.join(d, "build"))
    os.mkdir(os.path.join(d, "tmp"))
    os.symlink(os.path.abspath(binary), os.path.join(d, "build", "storebench"))
    for name in ("docs", "scripts", "tests"):
        os.symlink(os.path.join(os.path.abspath(source), name), os.path.join(d, name))
    return d


def run_section(text, cwd, timeout=600):
    """Runs the Commands section of `text` in `cwd`; returns (passed, message, output)."""
    env = {k: v for k, v in os.environ.items() if k not in SERVICE_VARS}
    env["TMPDIR"] = os.path.join(cwd, "tmp")
    log = os.path.join(cwd, "commands.log")
    with open(log, "w") as out:
        p = subprocess.run(["bash", "-c", section_script(text)], cwd=cwd, env=env,
                           stdout=out, stderr=subprocess.STDOUT, timeout=timeout)
    with open(log) as f:
        output = f.read()
    m = re.search(FAILED + r" (\d+) (\d+)", output)
    if m:
        return False, f"{command_at(text, int(m.group(1)))}: exit {m.group(2)}", output
    # What bash stops on without the trap (an unset variable, a syntax error) it reports as
    # "bash: line N: ...".
    m = re.search(r"^bash: line (\d+): ", output, re.M)
    if m and p.returncode != 0:
        return False, f"{command_at(text, int(m.group(1)))}: exit {p.returncode}", output
    if p.returncode != 0 or not output.rstrip().endswith(DONE):
        return False, f"the section stopped with exit {p.returncode}", output
    return True, "", output


class ReadmeCommandsTest(unittest.TestCase):
    def test_every_command_runs_as_written(self):
        for var in ("STOREBENCH_PG_URL", "STOREBENCH_MYSQL_URL"):
            harness.require_server(self, harness.env_url(var))
        with open(os.path.join(harness.ARGS.source, "README.md")) as f:
            text = f.read()
        cwd = scratch_checkout(harness.ARGS.binary, harness.ARGS.source, "readme-commands-")
        passed, message, output = run_section(text, cwd)
        # A failed run leaves its scratch directory (commands.log holds the whole output).
        self.assertTrue(passed, message + "\n--- " + cwd + "/commands.log (end) ---\n" +
                        output[-4000:])
        shutil.rmtree(cwd)


class RunnerTest(unittest.TestCase):
    """The runner itself: a command that fails stops the section and is named by its line."""

    def run_text(self, commands):
        text = "# title\n\n## Commands\n\nSome words.\n\n```\n" + commands + "\n```\n\n## Next\n"
        cwd = scratch_checkout(harness.ARGS.binary, harness.ARGS.source, "readme-runner-")
        try:
            return text, run_section(text, cwd, timeout=120)
        finally:
            shutil.rmtree(cwd)

    def test_a_passing_section_passes(self):
        _, (passed, message, output) = self.run_text(
            "T=$(mktemp -d)   # scratch\n"
            "build/storebench --help > $T/help.txt\n"
            "test -s $T/help.txt")
        self.assertTrue(passed, message + output)

    def test_the_first_failing_line_is_named_and_nothing_after_it_runs(self):
        text, (passed, message, output) = self.run_text(
            "build/storebench --help >/dev/null\n"
            "build/storebench oltp run --db sqlite://$PWD/x.db --no_such_option\n"
            "echo AFTER")
        self.assertFalse(passed)
        self.assertEqual(text.split("\n")[8], "build/storebench oltp run --db sqlite://$PWD/x.db"
                         " --no_such_option")
        self.assertTrue(message.startswith("README.md:9: build/storebench oltp run"), message)
        self.assertTrue(message.endswith(": exit 2"), message)
        self.assertNotIn("AFTER", output)

    def test_a_failure_inside_a_continued_command_or_a_pipe_is_named(self):
        _, (passed, message, _) = self.run_text(
            "true\nbuild/storebench oltp verify \\\n    --db sqlite://$PWD/missing.db\ntrue")
        self.assertFalse(passed)
        self.assertTrue(message.startswith("README.md:9: build/storebench oltp verify "
                                           "--db sqlite://$PWD/missing.db"), message)
        _, (passed, message, _) = self.run_text("false | cat\ntrue")
        self.assertFalse(passed)
        self.assertTrue(message.startswith("README.md:8: false | cat"), message)

    def test_an_unset_variable_fails(self):
        _, (passed, message, _) = self.run_text("echo $STOREBENCH_PG_URL")
        self.assertFalse(passed)
        self.assertTrue(message.startswith("README.md:8: "), message)
        self.assertTrue(message.endswith(": exit 1"), message)


if __name__ == "__main__":
    harness.main()
