"""The Debian packages (make deb; cmake/packaging.cmake), made by CPack from the build tree under
test (no second build: cpack packs what is built), then used as a user would: extracted with
dpkg -x into a clean directory and run from elsewhere, without the source tree. The storebench
package holds the stripped program (no debug symbols), the man page, the bash completion, the
documentation and the examples; its Depends come from dpkg-shlibdeps and never name Open MPI,
which only the storebench-mpi package needs. The installed completion completes commands,
verbs, options and option values when bash calls it.
"""
import glob
import gzip
import json
import os
import re
import shutil
import subprocess
import tempfile
import unittest

import harness
from harness import storebench

DOC = "usr/share/doc/storebench"


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300, **kw)


class PackageTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        build = os.path.dirname(os.path.abspath(harness.ARGS.binary))
        cls.dir = os.path.abspath(tempfile.mkdtemp(prefix="package-", dir=harness.ARGS.tmp))
        # -B: the packages and CPack's staging tree go to a directory of this test's own.
        r = run(["cpack", "--config", os.path.join(build, "CPackConfig.cmake"), "-G", "DEB",
                 "-B", os.path.join(cls.dir, "out")])
        if r.returncode != 0:
            shutil.rmtree(cls.dir)
            raise AssertionError("cpack failed (help2man and dpkg-dev: scripts/install-deps.sh "
                                 "test):\n" + r.stdout + r.stderr)
        cls.debs = {re.sub(r"_.*", "", os.path.basename(p)): p
                    for p in glob.glob(os.path.join(cls.dir, "out", "*.deb"))}
        cls.deb = cls.debs.get("storebench")
        cls.root = os.path.join(cls.dir, "root")
        if cls.deb:
            subprocess.run(["dpkg", "-x", cls.deb, cls.root], check=True)
        cls.program = os.path.join(cls.root, "usr", "bin", "storebench")
        # The installed program's working directory: nothing of the source or build tree.
        cls.elsewhere = os.path.join(cls.dir, "elsewhere")
        os.makedirs(cls.elsewhere)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir, ignore_errors=True)

    def installed(self, *args):
        return run([self.program, *args], cwd=self.elsewhere)

    def test_make_deb_builds_the_package_files_and_runs_this_cpack(self):
        # What `make deb` would run for this build tree (-n: print only; -o deps-run: no
        # package installation): the targets the packages hold, then CPack's DEB generator.
        build = os.path.dirname(os.path.abspath(harness.ARGS.binary))
        r = run(["make", "--no-print-directory", "-n", "-o", "deps-run", "-C",
                 harness.ARGS.source, "deb", "BUILD_DIR=" + build])
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn(f"cmake --build {build} -j", r.stdout)
        self.assertIn("--target install_files", r.stdout)
        self.assertIn("cpack -G DEB", r.stdout)

    def test_package_holds_the_program_man_page_completion_docs_and_examples(self):
        self.assertIsNotNone(self.deb, self.debs)
        files = run(["dpkg", "-c", self.deb]).stdout
        for path in ["usr/bin/storebench", "usr/share/man/man1/storebench.1.gz",
                     "usr/share/bash-completion/completions/storebench", f"{DOC}/README.md",
                     f"{DOC}/scale-out.md", f"{DOC}/output-schema.json",
                     f"{DOC}/examples/three-sqlite.toml", f"{DOC}/examples/DriverConfig.txt"]:
            self.assertIn(" ./" + path + "\n", files)
        self.assertNotIn("storebench-mpi", files)
        with gzip.open(os.path.join(self.root, "usr/share/man/man1/storebench.1.gz"), "rt") as f:
            man = f.read()
        self.assertIn(".TH STOREBENCH \"1\"", man)
        self.assertIn("storebench \\- benchmark suite", man)  # NAME, as whatis reads it
        for section in ("STOREBENCH OLTP RUN", "STOREBENCH IO RUN", "SEE ALSO"):
            self.assertIn(f'.SH "{section}"', man)
        self.assertIn("\\-\\-n_threads", man)

    def test_depends_come_from_the_libraries_and_never_name_open_mpi(self):
        depends = run(["dpkg-deb", "-f", self.deb, "Depends"]).stdout
        for lib in ("libc6", "libsqlite3-0", "libpq5", "libmariadb3", "liburing2"):
            self.assertIn(lib + " (", depends)
        self.assertNotIn("mpi", depends)
        self.assertNotIn("toml", depends)  # toml++ is used as headers only
        if "storebench-mpi" in self.debs:  # built when Open MPI was found
            mpi = self.debs["storebench-mpi"]
            fields = run(["dpkg-deb", "-f", mpi, "Depends", "Recommends"]).stdout
            self.assertIn("libopenmpi3 (", fields)
            self.assertIn("storebench (= ", fields)
            self.assertIn("Recommends: openmpi-bin", fields)
            self.assertIn("./usr/bin/storebench-mpi\n", run(["dpkg", "-c", mpi]).stdout)

    def test_program_is_stripped_and_needs_no_open_mpi(self):
        sections = run(["readelf", "-S", "-W", self.program]).stdout
        self.assertIn(".text", sections)
        self.assertNotIn(".debug_", sections)
        self.assertNotIn(".symtab", sections)
        libs = run(["ldd", self.program]).stdout
        self.assertNotIn("not found", libs)
        self.assertNotIn("mpi", libs.lower())

    def test_installed_program_runs_without_the_source_tree(self):
        r = self.installed("--version")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertRegex(r.stdout, r"^storebench \d+\.\d+\.\d+ \(git ([0-9a-f]+(-dirty)?|unknown), "
                                   r"\w+\)\n$")
        self.assertEqual(r.stdout, storebench("--version").stdout)
        db = os.path.join(self.elsewhere, "ds.db")
        r = self.installed("oltp", "load", "--db", f"sqlite://{db}", "--db_size=1MB")
        self.assertEqual(r.returncode, 0, r.stderr)
        # An installed example, found under the install prefix: DS3's DriverConfig.txt.
        config = os.path.join(self.root, DOC, "examples", "DriverConfig.txt")
        out = os.path.join(self.elsewhere, "r.json")
        r = self.installed("oltp", "run", "--db", f"sqlite://{db}", f"--config_file={config}",
                           "--db_size=1MB", "--run_time=2s", "--warmup_time=0", "--json", out)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        with open(out) as f:
            tool = json.load(f)["tool"]
        self.assertRegex(r.stdout, r"Final \(")
        self.assertIn(tool["commit"], self.installed("--version").stdout)

    def completion(self):
        return os.path.join(self.root, "usr/share/bash-completion/completions/storebench")

    def complete(self, *words):
        """The installed completion's answer when bash completes the last of `words`."""
        script = (f"source {self.completion()}\n"
                  "COMP_WORDS=(\"$@\"); COMP_CWORD=$(($# - 1)); _storebench\n"
                  "printf '%s\\n' \"${COMPREPLY[@]}\"\n")
        r = run(["bash", "-c", script, "bash", *words], cwd=self.elsewhere)
        self.assertEqual(r.returncode, 0, r.stderr)
        return r.stdout.split()

    def test_completion_completes_commands_verbs_options_and_values(self):
        self.assertEqual(self.complete("storebench", "o"), ["oltp"])
        self.assertEqual(self.complete("storebench", "oltp", "run", "--n_th"), ["--n_threads"])
        self.assertEqual(self.complete("storebench", "oltp", "r"), ["run", "restore"])
        self.assertEqual(self.complete("storebench", "io", "frag"), ["fragment", "fragtest"])
        # bash splits "--workload=t" at "=".
        self.assertEqual(self.complete("storebench", "oltp", "run", "--workload", "=", "t"),
                         ["tpcc"])
        # A plan's runs take oltp run's options; compare has its own.
        self.assertEqual(self.complete("storebench", "run", "--warmup_t"), ["--warmup_time"])
        self.assertEqual(self.complete("storebench", "compare", "--norm"), ["--normalize"])
        self.assertEqual(self.complete("storebench", "io", "run", "--db"), [])
        r = run(["bash", "-c", "source \"$1\"; complete -p storebench", "bash",
                 self.completion()])
        self.assertIn("-F _storebench", r.stdout)


if __name__ == "__main__":
    harness.main()
