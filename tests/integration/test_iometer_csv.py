"""io run --csv against the layout of Iometer 1.1.0's results file: a golden-shape comparison with
tests/data/iometer-1.1.0-results-layout.csv (written by hand from the layout Iometer's
SaveResults functions write: PageSetup.cpp, AccessSpecList.cpp, ManagerList.cpp, Manager.cpp,
Worker.cpp; docs/storage.md#iometer-results-csv), row type by row type and column by column:
which columns are filled and which are empty, the section markers and their order, time stamps
with milliseconds, spec lines with their trailing comma. Also the ICF and range points of the
same issue: --align with --spec, small ranges, an ICF's fixed seed and connection rate, the old
ICF format."""
import csv
import io
import os
import re
import unittest

import harness

MIB = 1 << 20
ROW_TYPES = ("ALL", "MANAGER", "PROCESSOR", "WORKER", "DISK")
STAMP = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d:\d{3}$")


# Cells Iometer fills and storebench leaves empty, as docs/fidelity.md#iometer says: a
# PROCESSOR row's interrupts per second (column 55: /proc/stat counts interrupts for the system
# only). Zero-based column indexes.
LEFT_EMPTY = {"PROCESSOR": (54,)}
# Packets/Second, Packet Errors, Segments Retransmitted/Second on ALL and MANAGER: rates over the
# measured window from /proc/net/dev and /proc/net/snmp, with Iometer's six decimals.
NETWORK = (56, 57, 58)
RATE = re.compile(r"^\d+\.\d{6}$")


def shape(rows, iometer=False):
    """The file's shape: markers, stamps and each data row's type, length, empty columns and the
    two fixed values (column 36, Transactions per Connection; column 54, Processor Speed). A run
    of PROCESSOR rows counts as one item; their numbers are returned apart."""
    out, processors, prev = [], [], None
    for r in rows:
        if not r:
            continue
        first = r[0]
        if first in ROW_TYPES:
            if first == "PROCESSOR" and prev == "PROCESSOR":
                processors[-1] += 1
            else:
                if first == "PROCESSOR":
                    processors.append(1)
                empty = [c == "" for c in r]
                if iometer:
                    for i in LEFT_EMPTY.get(first, ()):
                        assert not empty[i], f"the fixture's {first} row fills column {i + 1}"
                        empty[i] = True
                out.append((first, len(r), tuple(empty),
                            r[35] if len(r) > 35 else None, r[53] if len(r) > 53 else None))
        elif prev == "'Time Stamp":
            out.append(("stamp", bool(STAMP.match(",".join(r)))))
        elif prev == "'Version":
            out.append(("version", tuple(r)))
        elif prev == "'Test Type":
            out.append(("test type", first))
        elif prev == "'Access specification name":
            out.append(("spec name", len(r), r[-1]))
        elif first.startswith("'"):
            out.append(("marker", tuple(r)))
        else:  # a spec line: 8 numbers and the trailing comma's empty field
            out.append(("spec line", len(r), r[-1], all(x.isdigit() for x in r[:8])))
        prev = first
    return out, processors


def read(path):
    with open(path, newline="") as f:
        return list(csv.reader(io.StringIO(f.read())))


class IometerCsvTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.targets = []
        for name in ("ic_a.tst", "ic_b.tst"):
            path = harness.tmp_path(name)
            if not os.path.exists(path):
                p = harness.storebench("io", "prepare", "--target", path, "--size", "32MiB")
                assert p.returncode == 0, p.stderr
            cls.targets.append(path)
        cls.icf = os.path.join(harness.ARGS.source, "tests/data/some.icf")

    def run_io(self, *args):
        return harness.storebench("io", "run", "--target", ",".join(self.targets), "--engine",
                                  "null", "--run_time", "1s", "--ramp_time", "0s", *args)

    def test_results_file_has_iometer_110_shape(self):
        out = harness.tmp_path("ic_results.csv")
        p = self.run_io("--icf", self.icf, "--csv", out, "--json", harness.tmp_path("ic.json"))
        self.assertEqual(p.returncode, 0, p.stderr)
        ours, our_cpus = shape(read(out))
        golden, golden_cpus = shape(read(os.path.join(
            harness.ARGS.source, "tests/data/iometer-1.1.0-results-layout.csv")), iometer=True)
        # Two tests (the ICF's two assigned specifications), 2 workers x 2 targets each.
        self.assertEqual(len(ours), len(golden))
        for i, (a, b) in enumerate(zip(ours, golden)):
            self.assertEqual(a, b, f"item {i}: storebench {a} vs Iometer 1.1.0 {b}")
        # One PROCESSOR row per CPU of this machine (the sample was written for two).
        with open("/proc/stat") as f:
            cpus = sum(1 for line in f if re.match(r"cpu\d+ ", line))
        self.assertEqual(our_cpus, [cpus] * len(golden_cpus))
        rows = read(out)
        header = next(r for r in rows if r and r[0] == "'Target Type")
        self.assertEqual(header[79], " >= 10 s")
        all_rows = [r for r in rows if r and r[0] == "ALL"]
        self.assertEqual(all_rows[0][47], "8")  # Queue Depth: the ICF's 8 per target, not a sum
        # Each CPU's figures under "% CPU Utilization" (column 49), 46 empty fields before them
        # as 1.1.0 GA writes them (RC1 wrote 43).
        for r in (r for r in rows if r and r[0] == "PROCESSOR"):
            self.assertEqual(r[2:48], [""] * 46)
            self.assertNotEqual(r[48], "")
        # The network columns hold numbers (the run's own loopback connections may be all they
        # count; storebench's null engine sends nothing).
        for r in (r for r in rows if r and r[0] in ("ALL", "MANAGER")):
            for i in NETWORK:
                self.assertRegex(r[i], RATE, f"{r[0]} column {i + 1}: {r[i]!r}")
        disks = [r for r in rows if r and r[0] == "DISK"]
        self.assertEqual(sum(int(r[32]) + int(r[33]) for r in disks[:4]),
                         int(all_rows[0][32]) + int(all_rows[0][33]))

    def test_align_is_refused_where_it_would_change_nothing(self):
        p = self.run_io("--spec", "8KiB,100%read", "--align", "size")
        self.assertEqual(p.returncode, 2)
        self.assertIn("--align applies to --preset only", p.stderr)
        p = self.run_io("--icf", self.icf, "--align", "size")
        self.assertEqual(p.returncode, 2)

    def test_small_range_is_accepted_as_iometer_accepts_it(self):
        # 64 KiB holds many 8 KiB transfers (before, anything under transfer + 1 MiB was refused).
        p = self.run_io("--spec", "8KiB,100%read,100%random", "--max_size", "64KiB",
                        "--json", harness.tmp_path("ic_small.json"))
        self.assertEqual(p.returncode, 0, p.stderr)
        p = self.run_io("--spec", "8KiB,100%read", "--max_size", "4KiB")
        self.assertEqual(p.returncode, 2)
        self.assertIn("holds no aligned 8192 B transfer", p.stderr)

    def icf_variant(self, name, old, new):
        with open(self.icf, newline="") as f:
            text = f.read()
        self.assertIn(old, text)
        path = harness.tmp_path(name)
        with open(path, "w", newline="") as f:
            f.write(text.replace(old, new))
        return path

    def test_icf_fixed_seed_becomes_the_run_seed(self):
        icf = self.icf_variant("ic_seed.icf", "8,DISABLED,1,DISABLED,0", "8,DISABLED,1,ENABLED,42")
        p = self.run_io("--icf", icf)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("seed 42", p.stdout)
        self.assertIn("fixed seed 42 (the run seed)", p.stdout)
        p = self.run_io("--icf", icf, "--seed", "7")
        self.assertIn("seed 7", p.stdout)
        self.assertIn("fixed seed 42 (the run seed) (line", p.stdout)
        self.assertIn("overridden by --seed", p.stdout)

    def test_icf_connection_rate_is_refused_with_the_fix(self):
        icf = self.icf_variant("ic_conn.icf", "8,DISABLED,1,DISABLED,0", "8,ENABLED,1,DISABLED,0")
        p = self.run_io("--icf", icf)
        self.assertEqual(p.returncode, 2)
        self.assertIn("tests the connection rate", p.stderr)
        self.assertIn("set 'test connection rate' to DISABLED", p.stderr)

    def test_old_format_icf_says_so(self):
        icf = self.icf_variant("ic_old.icf", "Version 1.1.0", "Version 1998.01.05")
        p = self.run_io("--icf", icf)
        self.assertEqual(p.returncode, 2)
        self.assertIn("old ICF format of Iometer before 1998.05.21", p.stderr)
        self.assertIn("save it again", p.stderr)


if __name__ == "__main__":
    harness.main()
