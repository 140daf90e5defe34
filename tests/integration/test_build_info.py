"""The build's facts header (cmake/build_info.cmake, run by the storebench_build_info target on
every build): it names the source tree's commit (with -dirty when tracked files changed, or
"unknown" outside a git tree), follows a new commit, and is not rewritten when nothing changed,
so a build after a commit recompiles only src/version/version.cc and an unchanged tree rebuilds
nothing."""
import os
import re
import shutil
import subprocess
import tempfile
import unittest

import harness


def git(repo, *args):
    return subprocess.run(["git", "-C", repo, "-c", "user.name=t", "-c", "user.email=t@t",
                           *args], capture_output=True, text=True, check=True).stdout.strip()


class BuildInfoTest(unittest.TestCase):
    def setUp(self):
        if not shutil.which("git"):
            self.fail("git is not installed (scripts/install-deps.sh)")
        self.dir = tempfile.mkdtemp(prefix="build-info-", dir=os.path.abspath(harness.ARGS.tmp))
        self.header = os.path.join(self.dir, "storebench_build_info.h")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def write_header(self, source):
        subprocess.run(["cmake", f"-DSOURCE_DIR={source}", f"-DOUT={self.header}",
                        "-DVERSION=1.2.3", "-DBUILD_TYPE=Release", "-P",
                        os.path.join(harness.ARGS.source, "cmake", "build_info.cmake")],
                       check=True, capture_output=True)
        with open(self.header) as f:
            text = f.read()
        self.assertIn('#define STOREBENCH_VERSION "1.2.3"', text)
        self.assertIn('#define STOREBENCH_BUILD_TYPE "Release"', text)
        return re.search(r'STOREBENCH_GIT_COMMIT "([^"]*)"', text).group(1)

    def test_commit_dirty_new_commit_and_no_rewrite_when_unchanged(self):
        repo = os.path.join(self.dir, "src")
        os.makedirs(repo)
        git(repo, "init", "-q")
        with open(os.path.join(repo, "a.cc"), "w") as f:
            f.write("1\n")
        git(repo, "add", "a.cc")
        git(repo, "commit", "-q", "-m", "one")
        first = git(repo, "rev-parse", "HEAD")
        commit = self.write_header(repo)
        self.assertTrue(first.startswith(commit) and len(commit) >= 7, (first, commit))

        # Nothing changed: the header keeps its time, so nothing that includes it rebuilds.
        os.utime(self.header, (1, 1))
        self.assertEqual(self.write_header(repo), commit)
        self.assertEqual(os.stat(self.header).st_mtime, 1)

        with open(os.path.join(repo, "a.cc"), "w") as f:
            f.write("2\n")
        self.assertEqual(self.write_header(repo), commit + "-dirty")
        git(repo, "commit", "-q", "-am", "two")
        second = self.write_header(repo)
        self.assertNotEqual(second, commit)
        self.assertTrue(git(repo, "rev-parse", "HEAD").startswith(second))

    def test_outside_a_git_tree_the_commit_is_unknown(self):
        plain = os.path.join(self.dir, "plain")
        os.makedirs(plain)
        self.assertEqual(self.write_header(plain), "unknown")


if __name__ == "__main__":
    harness.main()
