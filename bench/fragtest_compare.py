"""storebench io fragtest beside fio on the same fragmented and defragmented files.

For each extent count: `io fragment` makes the test file that fragmented; fio runs a 1 MiB
sequential read (psync, O_DIRECT, one pass over the data area) and the VMTN
RealLife-60%Rand-65%Read mix (8 KiB, 65 % read, 60 % random, io_uring, QD 64) --rounds times;
`io fragtest` then runs the same two (its --spec with align=size, as fio aligns to the block
size, and its own sequential pass) --rounds times before, defragments, and --rounds times after;
fio runs again on the defragmented file. Medians; extent counts from `io extents`.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

SB = os.path.join(os.path.dirname(__file__), "..", "build", "storebench")
HEADER = 1 << 20
SPEC = "8KiB,65%read,60%random,align=size"


def sh(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed: {p.stderr.strip()}")
    return p.stdout


def extents(target):
    with tempfile.NamedTemporaryFile(suffix=".json") as f:
        sh([SB, "io", "extents", target, "--json", f.name])
        with open(f.name) as g:
            return json.load(g)["files"][0]["extents"]


def fio(target, size, options):
    out = sh(["fio", "--name=frag", f"--filename={target}", f"--offset={HEADER}",
              f"--size={size}", "--direct=1", "--thread=1", "--output-format=json", *options])
    job = json.loads(out[out.index("{"):])["jobs"][0]
    return job


def fio_round(target, size, secs):
    seq = fio(target, size, ["--rw=read", "--bs=1M", "--ioengine=psync"])
    mix = fio(target, size, ["--rw=randrw", "--rwmixread=65", "--percentage_random=60",
                             "--bs=8k", "--ioengine=io_uring", "--iodepth=64", "--time_based=1",
                             f"--runtime={secs}", "--norandommap=1"])
    return seq["read"]["bw_bytes"] / 1e6, mix["read"]["iops"] + mix["write"]["iops"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--target", default="build/bench-io/frag.tst")
    ap.add_argument("--size", default="1GiB")
    ap.add_argument("--extents", default="16,2048,16384")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seconds", type=int, default=5, help="per RealLife trial")
    a = ap.parse_args()
    os.makedirs(os.path.dirname(a.target) or ".", exist_ok=True)
    sh([SB, "io", "prepare", "--target", a.target, "--size", a.size])
    size = os.path.getsize(a.target) - HEADER
    fio_version = sh(["fio", "--version"]).strip()
    print(f"{fio_version} vs storebench io fragtest on {a.target} ({size >> 20} MiB data area), "
          f"O_DIRECT; seq = one 1 MiB psync pass (MB/s = 10^6 B/s); RealLife = 8 KiB 65 % read "
          f"60 % random io_uring QD 64, {a.seconds} s; medians of {a.rounds}\n")
    print(f"{'target':>7} {'phase':6} {'extents':>8} {'sb seq MB/s':>12} {'fio seq MB/s':>13} "
          f"{'sb RealLife IOPS':>17} {'fio RealLife IOPS':>18}")
    for n in [int(x) for x in a.extents.split(",")]:
        sh([SB, "io", "fragment", "--target", a.target, "--extents", str(n)])
        before_extents = extents(a.target)
        fb = [fio_round(a.target, size, a.seconds) for _ in range(a.rounds)]
        with tempfile.NamedTemporaryFile(suffix=".json") as f:
            sh([SB, "io", "fragtest", "--target", a.target, "--extents", str(n), "--spec", SPEC,
                "--outstanding", "64", "--rounds", str(a.rounds), "--run_time", f"{a.seconds}s",
                "--json", f.name])
            with open(f.name) as g:
                doc = json.load(g)
        fig = doc["figures"]
        after_extents = extents(a.target)
        fa = [fio_round(a.target, size, a.seconds) for _ in range(a.rounds)]
        mib = 1048576 / 1e6
        for phase, ext, fr in (("before", fig["extents_before"], fb),
                               ("after", fig["extents_after"], fa)):
            sb_seq = fig[f"{phase}.seq_read.mib_per_sec_median"] * mib
            sb_mix = fig[f"{phase}.{SPEC}.iops_median"]
            print(f"{n:>7} {phase:6} {int(ext):>8} {sb_seq:>12.0f} "
                  f"{statistics.median(x[0] for x in fr):>13.0f} {sb_mix:>17.0f} "
                  f"{statistics.median(x[1] for x in fr):>18.0f}")
        assert int(fig["extents_before"]) == before_extents
        assert int(fig["extents_after"]) == after_extents
        print(f"{'':>7} defrag: {doc['choices']['fragtest.defrag'][:110]}")


if __name__ == "__main__":
    main()
