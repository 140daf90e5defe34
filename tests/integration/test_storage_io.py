"""storebench io prepare/run on a real file in the build tree: every engine, the JSON result
(schema-valid, read/write shares), the Iometer CSV layout, and the safety refusals. Runs are
short (half a second per specification) and assertions never depend on speed."""
import csv
import io
import json
import os
import re
import sys
import unittest

sys.path.insert(0, os.path.dirname(__file__))
import check_schema  # noqa: E402
import harness  # noqa: E402

MIB = 1 << 20
# Each specification's measured time: what the cases assert (counts, shares, the CSV's layout)
# half a second of I/O shows as well as a second (psync did 14,000 I/Os a second here).
RUN_TIME = "500ms"


LONG_RUN = None


def setUpModule():
    # The one long run (10.5 s, see its case, the last to run) starts first, on a file of its
    # own, and waits out its seconds beside the other cases.
    global LONG_RUN
    target = harness.tmp_path("io_it_long.tst")
    if os.path.exists(target):
        os.remove(target)
    p = harness.storebench("io", "prepare", "--target", target, "--size", "1MiB")
    if p.returncode != 0 and "O_DIRECT" in p.stderr:
        raise unittest.SkipTest("the build tree's file system lacks O_DIRECT: " + p.stderr)
    assert p.returncode == 0, p.stderr
    # At 1,000 I/Os a second (open loop) psync's worker mostly sleeps instead of taking a core
    # from the other cases for 10 s; the progress line is the same.
    LONG_RUN = harness.storebench_started(
        "io", "run", "--target", target, "--run_time", "10.5s", "--spec",
        "4KiB,100%read,100%random", "--engine", "psync", "--rate", "1000")


def tearDownModule():
    if LONG_RUN is not None:
        LONG_RUN.result()


class StorageIoTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.target = harness.tmp_path("io_it.tst")
        if os.path.exists(cls.target):
            os.remove(cls.target)
        p = harness.storebench("io", "prepare", "--target", cls.target, "--size", "32MiB")
        if p.returncode != 0 and "O_DIRECT" in p.stderr:
            raise unittest.SkipTest("the build tree's file system lacks O_DIRECT: " + p.stderr)
        assert p.returncode == 0, p.stderr
        assert os.path.getsize(cls.target) == 33 * MIB

    def run_io(self, *args, run_time=RUN_TIME):
        return harness.storebench("io", "run", "--target", self.target, "--run_time", run_time,
                                  *args)

    def test_each_engine_runs_the_mixed_spec(self):
        for engine in ("psync", "libaio", "io_uring", "null"):
            with self.subTest(engine=engine):
                out = harness.tmp_path(f"io_{engine}.json")
                p = self.run_io("--engine", engine, "--spec", "8KiB,65%read,60%random",
                                "--outstanding", "8", "--workers", "2", "--json", out)
                self.assertEqual(p.returncode, 0, p.stderr)
                self.assertIn("Av. Resp. Time ms", p.stdout)
                doc = json.load(open(out))
                status, messages = check_schema.check(
                    out, os.path.join(harness.ARGS.source, "docs/output-schema.json"))
                self.assertEqual(status, 0, messages)
                t = doc["storage"][0]
                c = t["totals"]
                n = c["read_ios"] + c["write_ios"]
                self.assertGreater(n, 1000)
                self.assertEqual(c["read_errors"] + c["write_errors"], 0)
                self.assertEqual(c["read_bytes"], 8192 * c["read_ios"])
                self.assertEqual(c["write_bytes"], 8192 * c["write_ios"])
                self.assertAlmostEqual(c["read_ios"] / n, 0.65, delta=0.05)
                self.assertEqual(sum(c["iometer_latency_bins"]), n)
                self.assertEqual(len(t["per_worker"]), 2)
                self.assertEqual(sum(w["read_ios"] for w in t["per_worker"]), c["read_ios"])
                self.assertEqual(t["range_start_bytes"], MIB)
                self.assertEqual(t["range_bytes"], 32 * MIB)

    def test_open_loop_rate_on_every_engine(self):
        # The schedule caps the I/Os (never more than rate x seconds + those in flight); the
        # result records the rate, the arrivals and the loop model, and stays schema-valid.
        for engine in ("psync", "libaio", "io_uring"):
            with self.subTest(engine=engine):
                out = harness.tmp_path(f"io_rate_{engine}.json")
                p = self.run_io("--engine", engine, "--spec", "4KiB,100%read,100%random",
                                "--rate", "300", "--arrival", "poisson", "--outstanding", "4",
                                "--json", out)
                self.assertEqual(p.returncode, 0, p.stderr)
                doc = json.load(open(out))
                t = doc["storage"][0]
                self.assertEqual(t["rate_iops"], 300)
                self.assertEqual(t["arrival"], "poisson")
                self.assertTrue(doc["loop_model"].startswith("open loop: 300 I/Os per second"))
                n = t["totals"]["read_ios"]
                self.assertGreater(n, 0)
                # Poisson arrivals: the count in a second is random; 300 + 10 sigma bounds it.
                self.assertLess(n, 300 * t["measured_sec"] + 10 * (300 ** 0.5) + 4)

    def test_open_loop_behind_schedule_stops_with_exit_1(self):
        out = harness.tmp_path("io_rate_lag.json")
        p = harness.storebench("io", "run", "--target", self.target, "--run_time", "30s",
                               "--engine", "psync", "--spec", "4KiB,100%read,100%random",
                               "--rate", "1e8", "--max_lag", "0.2s", "--json", out)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("behind the requested rate", p.stderr)
        doc = json.load(open(out))
        self.assertIn("behind the requested rate", doc["storage"][0]["stopped"])
        self.assertIn("behind the requested rate", doc["warnings"][0])

    def test_open_loop_refuses_burst_specs(self):
        p = self.run_io("--spec", "4KiB,100%read,delay=10,burst=4", "--rate", "100")
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("burst delay or burst length", p.stderr)

    def test_vmtn_preset_writes_iometer_csv(self):
        out_csv = harness.tmp_path("io_vmtn.csv")
        p = self.run_io("--preset", "vmtn", "--engine", "io_uring", "--outstanding", "4",
                        "--json", harness.tmp_path("io_vmtn.json"), "--csv", out_csv)
        self.assertEqual(p.returncode, 0, p.stderr)
        # The 32 MiB file is smaller than the preset's 16,000,000 sectors: clamped with a warning.
        self.assertIn("smaller than", p.stderr)
        for name in ("Max Throughput-100%Read", "RealLife-60%Rand-65%Read",
                     "Max Throughput-50%Read", "Random-8k-70%Read"):
            self.assertIn(name, p.stdout)
        rows = list(csv.reader(io.StringIO(open(out_csv).read())))
        self.assertEqual(rows[0], ["'Test Type", "Test Description"])
        self.assertEqual(rows[-1], ["'End Test"])
        headers = [r for r in rows if r and r[0] == "'Target Type"]
        self.assertEqual(len(headers), 4)
        self.assertEqual(len(headers[0]), 80)
        self.assertEqual(headers[0][79], " >= 10 s")
        data = [r for r in rows if r and r[0] in ("ALL", "MANAGER", "WORKER", "DISK")]
        self.assertEqual([r[0] for r in data[:4]], ["ALL", "MANAGER", "WORKER", "DISK"])
        self.assertEqual(len(data), 16)
        # Iometer 1.1.0 GA writes the 21 latency bins on ALL, MANAGER, WORKER and DISK rows alike
        # (test_iometer_csv checks the whole layout).
        for r in data:
            self.assertEqual(len(r), 80, r[0])
        all_rows = [r for r in data if r[0] == "ALL"]
        # 100% read spec: no writes; 50% read sequential: both.
        self.assertEqual(int(all_rows[0][33]), 0)  # Write I/Os
        self.assertGreater(int(all_rows[2][33]), 0)

    def test_foreign_file_is_not_written(self):
        foreign = harness.tmp_path("io_foreign.dat")
        with open(foreign, "wb") as f:
            f.write(b"precious" * (4 * MIB // 8))
        before = open(foreign, "rb").read()
        p = harness.storebench("io", "run", "--target", foreign, "--run_time", RUN_TIME,
                               "--spec", "4KiB,50%read")
        self.assertEqual(p.returncode, 2)
        self.assertIn("did not create", p.stderr)
        p = harness.storebench("io", "prepare", "--target", foreign, "--size", "8MiB")
        self.assertEqual(p.returncode, 2)
        self.assertEqual(open(foreign, "rb").read(), before)
        # Reading a foreign file is allowed.
        p = harness.storebench("io", "run", "--target", foreign, "--run_time", RUN_TIME,
                               "--spec", "4KiB,100%read,100%random",
                               "--json", harness.tmp_path("io_foreign.json"))
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(open(foreign, "rb").read(), before)
        os.remove(foreign)

    def test_icf_import(self):
        """The issue's command as written (no --run_time): the ICF's specifications, run time,
        ramp, workers, outstanding I/Os and data pattern apply and are recorded. The command
        runs in a directory of its own holding tests/data/some.icf with a run time of 1 s
        instead of 5 (its two specifications took 12 s; every other line is the file's)."""
        here = harness.tmp_path("io_icf_import")
        os.makedirs(os.path.join(here, "tests", "data"), exist_ok=True)
        with open(os.path.join(harness.ARGS.source, "tests/data/some.icf"), newline="") as f:
            icf = f.read()
        run_time_line = "\t0          0          5\r\n"
        self.assertEqual(icf.splitlines(keepends=True)[6], run_time_line)
        with open(os.path.join(here, "tests", "data", "some.icf"), "w", newline="") as f:
            f.write(icf.replace(run_time_line, "\t0          0          1\r\n", 1))
        out = harness.tmp_path("io_icf.json")
        p = harness.storebench("io", "run", "--icf", "tests/data/some.icf", "--target",
                               self.target, "--json", out, cwd=here)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("icf: tests/data/some.icf (Iometer 1.1.0)", p.stdout)
        doc = json.load(open(out))
        tests = doc["storage"]
        self.assertEqual([t["name"] for t in tests], ["OLTP 8K 70% read random", "File server mix"])
        self.assertEqual(tests[1]["spec_lines"], ["512,10,80,100,0,1,0,0", "4096,60,80,100,0,1,4096,0",
                                                  "16384,20,80,100,0,1,0,0", "65536,10,80,100,0,1,0,0"])
        for t in tests:
            self.assertEqual(t["workers"], 2)
            self.assertEqual(t["outstanding"], 8)
            self.assertEqual(t["data_pattern"], "pseudo_random")
            self.assertEqual(t["ramp_sec"], 1)
            self.assertAlmostEqual(t["measured_sec"], 1, delta=0.5)
            self.assertGreater(t["totals"]["read_ios"], 0)
            self.assertGreater(t["totals"]["write_ios"], 0)
        note = doc["choices"]["storage.icf"]
        self.assertIn("run time 1s (line 7)", note)
        self.assertIn("8 outstanding I/Os per target (line 72)", note)
        self.assertIn("maximum disk size 2000000 sectors", note)

    def test_icf_command_line_overrides(self):
        out, out_csv = harness.tmp_path("io_icf_override.json"), harness.tmp_path("io_icf.csv")
        p = self.run_io("--icf", os.path.join(harness.ARGS.source, "tests/data/some.icf"),
                        "--ramp_time", "0s", "--outstanding", "2", "--json", out, "--csv", out_csv,
                        run_time="500ms")
        self.assertEqual(p.returncode, 0, p.stderr)
        doc = json.load(open(out))
        for t in doc["storage"]:
            self.assertEqual(t["outstanding"], 2)
            self.assertEqual(t["workers"], 2)
            self.assertEqual(t["ramp_sec"], 0)
            self.assertAlmostEqual(t["measured_sec"], 0.5, delta=0.3)
        note = doc["choices"]["storage.icf"]
        self.assertIn("overridden by --run_time", note)
        self.assertEqual(list(csv.reader(open(out_csv)))[1][1],
                         "OLTP and file-server mixes on the data volume")
        self.assertIn("overridden by --outstanding", note)
        self.assertIn("overridden by --ramp_time", note)

    def test_bad_icf_names_file_and_line(self):
        bad = harness.tmp_path("io_bad.icf")
        src = open(os.path.join(harness.ARGS.source, "tests/data/some.icf"), newline="").read()
        with open(bad, "w", newline="") as f:
            f.write(src.replace("65536,10,80,100,0,1,0,0", "65536,10,80,100,0,1,0,1024"))
        p = self.run_io("--icf", bad)
        self.assertEqual(p.returncode, 2)
        self.assertEqual(p.stderr.count("\n"), 1, p.stderr)
        self.assertIn(bad + " line 55: access specification 'File server mix' line 4: reply sizes",
                      p.stderr)

    def test_two_targets_per_worker(self):
        """Iometer's workers x targets: every worker keeps its outstanding I/Os on each target,
        so with equal queue depths each target gets half of the I/Os; the CSV has one DISK row
        per worker and target, and the JSON per-target counts add up to the totals."""
        second = harness.tmp_path("io_it_2.tst")
        p = harness.storebench("io", "prepare", "--target", second, "--size", "32MiB")
        self.assertEqual(p.returncode, 0, p.stderr)
        for engine, tolerance in (("null", 0.01), ("io_uring", 0.15)):
            with self.subTest(engine=engine):
                out, out_csv = harness.tmp_path(f"io_2t_{engine}.json"), harness.tmp_path(f"io_2t_{engine}.csv")
                p = self.run_io("--engine", engine, "--spec", "8KiB,70%read,50%random",
                                "--target", second, "--outstanding", "4", "--workers", "2",
                                "--json", out, "--csv", out_csv)
                self.assertEqual(p.returncode, 0, p.stderr)
                t = json.load(open(out))["storage"][0]
                self.assertEqual([x["path"] for x in t["targets"]], [self.target, second])
                self.assertEqual(t["target"], self.target + "," + second)
                n = t["totals"]["read_ios"] + t["totals"]["write_ios"]
                shares = [(c["read_ios"] + c["write_ios"]) / n for c in t["per_target"]]
                for share in shares:
                    self.assertAlmostEqual(share, 0.5, delta=tolerance, msg=shares)
                self.assertEqual(sum(c["read_ios"] for c in t["per_target"]), t["totals"]["read_ios"])
                self.assertEqual(len(t["per_worker_target"]), 2)
                for w, per in zip(t["per_worker"], t["per_worker_target"]):
                    self.assertEqual(sum(c["write_ios"] for c in per), w["write_ios"])
                rows = [r for r in csv.reader(io.StringIO(open(out_csv).read()))
                        if r and r[0] in ("ALL", "WORKER", "DISK")]
                self.assertEqual([r[0] for r in rows],
                                 ["ALL", "WORKER", "DISK", "DISK", "WORKER", "DISK", "DISK"])
                self.assertEqual([r[1] for r in rows if r[0] == "DISK"], [self.target, second] * 2)
                self.assertEqual(rows[0][5], "4")       # # Disks: 2 workers x 2 targets
                self.assertEqual(rows[0][47], "4")      # Queue Depth: per target, as Iometer
                self.assertEqual(rows[2][47], "4")      # per worker and target
                disk_ios = sum(int(r[32]) + int(r[33]) for r in rows if r[0] == "DISK")
                self.assertEqual(disk_ios, n)

    def test_verify_detects_a_corrupted_block(self):
        """io verify: an intact file passes; bytes overwritten between the write and the read
        phase are reported with their offset, and the run fails."""
        target = harness.tmp_path("io_verify.tst")
        if os.path.exists(target):
            os.remove(target)
        p = harness.storebench("io", "prepare", "--target", target, "--size", "8MiB")
        self.assertEqual(p.returncode, 0, p.stderr)
        p = harness.storebench("io", "verify", "--target", target, "--verify_phase=both")
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertIn("read: 2048 blocks checked", p.stdout)
        self.assertIn("0 mismatches", p.stdout)
        # The default only reads: the file is not touched, the blocks just written pass.
        def content():
            with open(target, "rb") as f:
                return os.stat(target).st_mtime_ns, f.read()
        before = content()
        p = harness.storebench("io", "verify", "--target", target)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertIn("read: 2048 blocks checked", p.stdout)
        self.assertNotIn("write:", p.stdout)
        self.assertEqual(content(), before)
        p = harness.storebench("io", "verify", "--target", target, "--verify_phase=write")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertNotIn("read:", p.stdout)
        corrupt_at = MIB + 3 * MIB + 1234  # in the middle of the data area
        with open(target, "r+b") as f:
            f.seek(corrupt_at)
            old = f.read(3)
            f.seek(corrupt_at)
            f.write(bytes(b ^ 0x5A for b in old))
            f.flush()
            os.fsync(f.fileno())
        p = harness.storebench("io", "verify", "--target", target, "--verify_phase=read")
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        block = corrupt_at - corrupt_at % 4096
        mismatches = [l for l in p.stdout.splitlines() if "mismatch:" in l]
        self.assertEqual(len(mismatches), 1, p.stdout)
        self.assertIn(f"block at byte {block}: 3 bytes differ at byte {corrupt_at}-{corrupt_at + 2}",
                      mismatches[0])
        self.assertIn("expected 0x%02x, found 0x%02x" % (old[0], old[0] ^ 0x5A), mismatches[0])
        self.assertIn("verify: FAILED", p.stdout)

    def test_verify_never_writes_where_it_must_not(self):
        foreign = harness.tmp_path("io_verify_foreign.dat")
        with open(foreign, "wb") as f:
            f.write(b"precious" * (2 * MIB // 8))
        before = open(foreign, "rb").read()
        p = harness.storebench("io", "verify", "--target", foreign, "--verify_phase=both")
        self.assertEqual(p.returncode, 2)
        self.assertIn("did not create", p.stderr)
        p = harness.storebench("io", "verify", "--target", self.target, "--readonly",
                               "--verify_phase=both")
        self.assertEqual(p.returncode, 2)
        # The read phase (the default) only reads: allowed on any file (every block mismatches).
        p = harness.storebench("io", "verify", "--target", foreign)
        self.assertEqual(p.returncode, 1)
        self.assertIn("no verify header", p.stdout)
        self.assertIn("write it first with --verify_phase=write", p.stdout)
        self.assertEqual(open(foreign, "rb").read(), before)
        os.remove(foreign)

    def test_readonly_refuses_writes(self):
        p = self.run_io("--spec", "4KiB,50%read", "--readonly")
        self.assertEqual(p.returncode, 2)


class StorageProgressTest(unittest.TestCase):
    """After StorageIoTest (unittest runs classes by name), so its run, started in setUpModule,
    is done or nearly."""

    def test_a_long_test_prints_progress_every_10_s(self):
        # The line comes at 10 s: the run must be longer (and shorter than 20 s).
        p = LONG_RUN.result()
        self.assertEqual(p.returncode, 0, p.stderr)
        lines = [l for l in p.stderr.splitlines() if re.match(r"^ +10 s \(\w+\): \d+ IOPS, ", l)]
        self.assertEqual(len(lines), 1, p.stderr)


if __name__ == "__main__":
    harness.main()
