"""make coverage's per-folder table (scripts/coverage_folders.py) over a real gcovr summary: a
scratch program of two folders compiled with GCC's --coverage and run once, one branch left
untaken; the table counts each folder's lines and the whole."""
import os
import shutil
import subprocess
import tempfile
import unittest

import harness

PICK = """int Pick(int v) {
  if (v > 100) {
    return v * 2;
  }
  return v;
}
"""
MAIN = """int Pick(int v);
int main() {
  int s = Pick(3);
  return s == 3 ? 0 : 1;
}
"""


class CoverageFoldersTest(unittest.TestCase):
    def setUp(self):
        for tool in ("g++", "gcovr"):
            if not shutil.which(tool):
                self.fail(f"{tool} is not installed (scripts/install-deps.sh test)")
        self.dir = tempfile.mkdtemp(prefix="cov-", dir=os.path.abspath(harness.ARGS.tmp))

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def write(self, rel, text):
        os.makedirs(os.path.dirname(os.path.join(self.dir, rel)), exist_ok=True)
        with open(os.path.join(self.dir, rel), "w") as f:
            f.write(text)

    def test_each_folder_counts_its_own_lines_and_the_last_line_the_whole(self):
        self.write("src/a/pick.cc", PICK)
        self.write("src/b/main.cc", MAIN)
        self.write("tests/t.cc", "int Unused() { return 1; }\n")
        run = lambda *cmd: subprocess.run(cmd, cwd=self.dir, check=True, capture_output=True,
                                          text=True)
        run("g++", "--coverage", "-O0", "-o", "prog", "src/a/pick.cc", "src/b/main.cc",
            "tests/t.cc")
        run("./prog")
        run("gcovr", "-r", ".", "--filter", "src/", "--json-summary", "summary.json")
        script = os.path.abspath(os.path.join(harness.ARGS.source, "scripts/coverage_folders.py"))
        out = run("python3", script, "summary.json").stdout
        rows = {line.split()[0]: line.split()[1:] for line in out.splitlines()[1:]}
        # pick.cc: 4 lines, the doubling never ran; main.cc: 3 lines, all ran; tests/ filtered.
        self.assertEqual(rows["src/a"], ["4", "3", "75.0"])
        self.assertEqual(rows["src/b"], ["3", "3", "100.0"])
        self.assertEqual(rows["all"], ["7", "6", "85.7"])
        self.assertNotIn("tests", rows)


if __name__ == "__main__":
    harness.main()
