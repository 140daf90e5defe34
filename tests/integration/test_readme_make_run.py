"""The README's Quick start, executed: `make run` as a user types it, with the Makefile's own
variables pointing into a scratch directory (BUILD_DIR, DB) so the test neither rebuilds nor
touches the real build tree's database and result. Its recipe is the one that runs:
`make -o deps-run -o binary run` treats the two prerequisites that would install packages and
rebuild as up to date (GNU make's --old-file), and the scratch BUILD_DIR holds a link to the
binary under test. Two variables the README names shorten it: DB_SIZE=1MB (the default S load
takes about a minute on a loaded CI machine; 1MB takes seconds, through the same load line) and
RUN_ARGS (a 3-second run instead of the README's minute). `make test` itself is not run here: it
is what runs this test."""
import json
import os
import re
import shutil
import subprocess
import tempfile
import unittest

import harness


class ReadmeMakeRunTest(unittest.TestCase):
    def test_make_run_loads_runs_and_writes_the_result(self):
        if not shutil.which("make"):
            self.fail("make is not installed (build-essential, scripts/install-deps.sh)")
        with open(os.path.join(harness.ARGS.source, "README.md")) as f:
            readme = f.read()
        # The Quick start still says what this test runs.
        self.assertIn("make run ", readme)
        self.assertIn("Set `RUN_ARGS` to change the run", readme)
        self.assertIn("`DB_SIZE` for another", readme)
        self.assertIn("build/results/make-run.json", readme)

        scratch = tempfile.mkdtemp(prefix="readme-make-run-", dir=os.path.abspath(harness.ARGS.tmp))
        os.symlink(os.path.abspath(harness.ARGS.binary), os.path.join(scratch, "storebench"))
        db = os.path.join(scratch, "ds3-1MB.db")
        cmd = ["make", "--no-print-directory", "-C", harness.ARGS.source, "-o", "deps-run", "-o",
               "binary", "run", "BUILD_DIR=" + scratch, "DB=" + db, "DB_SIZE=1MB",
               "RUN_ARGS=--n_threads=4 --warmup_time=0 --run_time=3s"]
        # The recipe make would run: the README's load and run lines, nothing else.
        dry = subprocess.run(cmd + ["-n"], capture_output=True, text=True, timeout=60)
        self.assertEqual(dry.returncode, 0, dry.stderr)
        self.assertNotIn("install-deps", dry.stdout)
        self.assertNotIn("cmake", dry.stdout)
        self.assertIn(scratch + "/storebench oltp load --db sqlite://" + db + " --db_size=1MB",
                      dry.stdout)
        self.assertIn(scratch + "/storebench oltp run --db sqlite://" + db + " --db_size=1MB",
                      dry.stdout)

        # Without -o: `make run` installs only what building and running need (no server, no
        # browser: scripts/install-deps.sh run) and builds only the program.
        full = subprocess.run(["make", "--no-print-directory", "-C", harness.ARGS.source, "-n",
                               "run", "BUILD_DIR=" + scratch, "DB=" + db],
                              capture_output=True, text=True, timeout=60)
        self.assertEqual(full.returncode, 0, full.stderr)
        self.assertIn("scripts/install-deps.sh run\n", full.stdout)
        self.assertNotIn("install-deps.sh test", full.stdout)
        self.assertIn("--target storebench", full.stdout)
        with open(os.path.join(harness.ARGS.source, "scripts", "install-deps.sh")) as f:
            script = f.read()
        run_set = re.search(r"run_packages=\((.*?)\n\)", script, re.S).group(1)
        run_set = " ".join(line.split("#")[0] for line in run_set.splitlines()).split()
        for heavy in ("postgresql", "mariadb-server", "chromium", "clang-14", "libopenmpi-dev",
                      "fio", "libgtest-dev"):
            self.assertNotIn(heavy, run_set)

        p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        self.assertEqual(p.returncode, 0, p.stdout[-2000:] + p.stderr[-2000:])
        final = [line for line in p.stdout.splitlines() if line.startswith("Final (")]
        self.assertEqual(len(final), 1, p.stdout[-2000:])
        opm = int(re.search(r" opm=(\d+)", final[0]).group(1))
        self.assertGreater(opm, 0, final[0])
        result = os.path.join(scratch, "results", "make-run.json")
        with open(result) as f:
            doc = json.load(f)
        self.assertEqual(doc["workload"], "dvdstore")
        self.assertEqual(doc["headlines"]["opm"], opm)
        self.assertEqual(doc["config"]["n_threads"], 4)
        self.assertTrue(os.path.getsize(db) > 0)
        shutil.rmtree(scratch)


if __name__ == "__main__":
    harness.main()
