"""Bad and oversized input is refused with exit 2 and one short sentence, before anything runs:
numbers out of their typed limits, wrapped integers, oversized config files and ICFs (issue #20,
items 7, 8 and 15; docs/limits.md)."""
import os
import unittest

import harness
from harness import storebench, tmp_path


class InputLimitsTest(unittest.TestCase):
    def assertRefused(self, r, *needles):
        self.assertEqual(r.returncode, 2, r.stderr)
        lines = r.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, r.stderr[:2000])
        self.assertLess(len(lines[0]), 400, lines[0][:2000])
        for n in needles:
            self.assertIn(n, lines[0])

    def oltp_run(self, *extra):
        # A missing database would be the next error: the options must be refused first.
        return storebench("oltp", "run", "--db", "sqlite://" + tmp_path("limits-none.db"),
                          *extra)

    def io_run(self, *extra):
        return storebench("io", "run", "--target", tmp_path("limits-none.tst"),
                          "--engine=null", "--spec", "4KiB", *extra)

    def test_oltp_numbers_out_of_range(self):
        for args, needle in [
                (["--think_time=1e308"], "think_time"),
                (["--rate=1e-300"], "rate"),
                (["--rate=-5"], "rate"),
                (["--steady_slope=-1"], "steady_slope"),
                (["--op_log_sampling=2"], "op_log_sampling"),
                (["--n_threads= 4"], "n_threads"),
                (["--n_threads=+4"], "n_threads"),
                (["--n_threads=4294967297"], "n_threads"),
                (["--run_time=9999999h"], "run_time"),
                (["--max_lag=100000000h"], "max_lag")]:
            self.assertRefused(self.oltp_run(*args), needle)

    def test_io_numbers_out_of_range(self):
        for args, needle in [
                (["--workers", "4294967297"], "workers"),
                (["--workers", "5000"], "workers"),
                (["--outstanding", "100000"], "outstanding"),
                (["--run_time", "99999999999s"], "run_time")]:
            self.assertRefused(self.io_run(*args), needle)

    def test_spec_burst_has_the_icf_limit(self):
        self.assertRefused(self.io_run("--spec", "4KiB,burst=99999999999"), "burst")

    def test_config_file_limits(self):
        self.assertRefused(self.oltp_run("--config_file=/dev/zero"), "/dev/zero")
        big = tmp_path("limits-bigline.txt")
        with open(big, "w") as f:
            f.write("n_threads=2\nvirt_dir=" + "x" * (50 << 20) + "\n")
        r = self.oltp_run("--config_file=" + big)
        self.assertRefused(r, "limits-bigline.txt:2", "4096 bytes")
        os.remove(big)

    def some_icf(self):
        with open(os.path.join(harness.ARGS.source, "tests", "data", "some.icf")) as f:
            return f.read()

    def run_icf(self, name, text):
        path = tmp_path(name)
        with open(path, "w") as f:
            f.write(text)
        r = self.io_run_icf(path)
        os.remove(path)
        return r

    def io_run_icf(self, path):
        return storebench("io", "run", "--target", tmp_path("limits-none.tst"), "--engine=null",
                          "--icf", path)

    def test_icf_limits(self):
        text = self.some_icf()
        workers = text.replace("'Default Disk Workers to Spawn\n\tNUMBER_OF_CPUS",
                               "'Default Disk Workers to Spawn\n\t100000")
        self.assertRefused(self.run_icf("limits-workers.icf", workers),
                           "limits-workers.icf line 11", "1024")
        head, _, tail = text.partition("'END access specifications")
        lines = "'Access specification name,default assignment\n\tmany,DISK\n" \
                "'size,% of size,% reads,% random,delay,burst,align,reply\n" + \
                "\t4096,1,100,100,0,1,0,0\n" * 100001
        self.assertRefused(self.run_icf("limits-lines.icf", head + lines +
                                        "'END access specifications" + tail),
                           "limits-lines.icf")
        self.assertRefused(self.io_run_icf("/dev/zero"), "/dev/zero")

    def test_icf_cut_short_in_the_manager_list(self):
        text = self.some_icf()
        # Cut inside the first worker's assigned specifications: it then seems to have none.
        mark = "'Assigned access specs\n"
        cut = text[:text.index(mark) + len(mark)]
        self.assertRefused(self.run_icf("limits-cut.icf", cut), "limits-cut.icf line",
                           "END manager list")


if __name__ == "__main__":
    harness.main()
