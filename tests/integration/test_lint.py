"""make lint (scripts/lint.sh) in a scratch git repository laid out like this one (the script,
.clang-format, .clang-tidy, a CMakeLists.txt): it checks only what changed against its base
(the merge-base with main, or on main itself the last commit), fails on a changed line that
clang-format would change and on a clang-tidy finding in a changed file, and passes, checking
nothing, when there is no base (a clone of a single commit)."""
import os
import shutil
import subprocess
import tempfile
import unittest

import harness

GOOD = "int Twice(int x) { return 2 * x; }\n"
BADLY_FORMATTED = "int   Thrice( int x ){return 3*x;}\n"
# Formatted, but a C-style cast: google-readability-casting.
TIDY_FINDING = "int Truncate(double x) { return (int)x; }\n"


class LintTest(unittest.TestCase):
    def setUp(self):
        for tool in ("git", "cmake", "clang-format-14", "git-clang-format-14", "clang-tidy-14"):
            if not shutil.which(tool):
                self.fail(f"{tool} is not installed (scripts/install-deps.sh test)")
        self.repo = tempfile.mkdtemp(prefix="lint-", dir=os.path.abspath(harness.ARGS.tmp))
        os.makedirs(os.path.join(self.repo, "scripts"))
        os.makedirs(os.path.join(self.repo, "src"))
        for f in ("scripts/lint.sh", ".clang-format", ".clang-tidy"):
            shutil.copy2(os.path.join(harness.ARGS.source, f), os.path.join(self.repo, f))
        self.write("CMakeLists.txt", "cmake_minimum_required(VERSION 3.20)\nproject(t CXX)\n"
                   "file(GLOB srcs CONFIGURE_DEPENDS src/*.cc)\nadd_library(t ${srcs})\n")
        self.git("init", "-q", "-b", "main")

    def tearDown(self):
        shutil.rmtree(self.repo, ignore_errors=True)

    def git(self, *args):
        subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
                       cwd=self.repo, check=True, capture_output=True)

    def write(self, path, text):
        with open(os.path.join(self.repo, path), "w") as f:
            f.write(text)

    def commit(self, message):
        self.git("add", "-A")
        self.git("commit", "-q", "-m", message)

    def lint(self):
        env = {k: v for k, v in os.environ.items() if k != "LINT_BASE"}
        return subprocess.run(["scripts/lint.sh"], cwd=self.repo, env=env, capture_output=True,
                              text=True, timeout=300)

    def test_only_the_changes_against_the_base_are_checked(self):
        # One commit: no base; the badly formatted file is not checked.
        self.write("src/old.cc", BADLY_FORMATTED)
        self.commit("first")
        r = self.lint()
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("nothing checked", r.stderr)

        # On main (a clean clone's only branch): the last commit's files, not old.cc.
        self.write("src/a.cc", GOOD)
        self.commit("a")
        r = self.lint()
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("lint: passed", r.stderr)
        self.assertIn("clang-tidy src/a.cc", r.stderr)
        self.assertNotIn("old.cc", r.stderr)

        # A branch: everything since its merge-base with main, committed or not.
        self.git("checkout", "-q", "-b", "topic")
        self.write("src/b.cc", TIDY_FINDING)
        self.commit("b")
        self.write("src/c.cc", GOOD)
        self.commit("c")
        r = self.lint()
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn("google-readability-casting", r.stderr)
        self.assertIn("src/b.cc", r.stderr)
        self.assertNotIn("clang-format: these changed lines", r.stderr)

        self.write("src/b.cc", GOOD.replace("Twice", "Again"))
        self.write("src/a.cc", GOOD + BADLY_FORMATTED)  # uncommitted
        r = self.lint()
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn("clang-format: these changed lines are not formatted", r.stderr)
        self.assertIn("Thrice", r.stderr)

        self.write("src/a.cc", GOOD)
        r = self.lint()
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("2 C++ file(s) changed", r.stderr)


if __name__ == "__main__":
    harness.main()
