"""fio and storebench on the same specifications, file, engine and queue depth, alternating
(see fio_compare.sh). IOPS come from each tool's own result (fio's JSON, storebench's JSON);
CPU time is measured the same way for both: the process's user + system time from its rusage
(RUSAGE_CHILDREN around the run, so fio's job threads and storebench's workers are included,
and so are each tool's start-up and shutdown). CPU per I/O = that time / the I/Os the tool
reports."""
import argparse
import json
import os
import statistics
import subprocess
import tempfile

import peers

SB = "build/storebench"
HEADER = 1 << 20  # storebench's test-file header: both tools use the data area after it

# name, storebench --spec, fio options. The VMTN specifications as docs/storage.md
# lists them; storebench aligns to the transfer size (--spec ...,align=size) because fio aligns random
# offsets to the block size (blockalign = bs). One difference remains by design: in the mixed
# sequential spec fio keeps one cursor per direction, storebench (Iometer) one shared cursor.
SPECS = [
    ("4KiB random read", "4KiB,100%read,100%random,align=size",
     ["--rw=randread", "--bs=4k"]),
    ("Max Throughput-100%Read", "32KiB,100%read,0%random,align=size",
     ["--rw=read", "--bs=32k"]),
    ("RealLife-60%Rand-65%Read", "8KiB,65%read,60%random,align=size",
     ["--rw=randrw", "--rwmixread=65", "--percentage_random=60", "--bs=8k"]),
    ("Max Throughput-50%Read", "32KiB,50%read,0%random,align=size",
     ["--rw=rw", "--rwmixread=50", "--bs=32k"]),
    ("Random-8k-70%Read", "8KiB,70%read,100%random,align=size",
     ["--rw=randrw", "--rwmixread=70", "--bs=8k"]),
]


def run_storebench(target, size, spec, engine, qd, secs):
    with tempfile.NamedTemporaryFile(suffix=".json") as f:
        _, cpu, _ = peers.timed([SB, "io", "run", "--target", target, "--spec", spec,
                                 "--engine", engine, "--outstanding", str(qd), "--workers", "1",
                                 "--run_time", f"{secs}s", "--max_size", str(size),
                                 "--pattern", "pseudo_random", "--json", f.name])
        t = json.load(open(f.name))["storage"][0]
    ios = t["totals"]["read_ios"] + t["totals"]["write_ios"]
    return t["iops"], cpu / max(ios, 1), ios, cpu


def run_fio(target, size, options, engine, qd, secs, extra):
    out, cpu, _ = peers.timed(["fio", "--name=cmp", f"--filename={target}",
                               f"--offset={HEADER}", f"--size={size}", "--direct=1",
                               f"--ioengine={engine}", f"--iodepth={qd}", "--time_based=1",
                               f"--runtime={secs}", "--norandommap=1", "--thread=1",
                               "--output-format=json", *options, *extra])
    job = json.loads(out[out.index("{"):])["jobs"][0]
    ios = job["read"]["total_ios"] + job["write"]["total_ios"]
    return job["read"]["iops"] + job["write"]["iops"], cpu / max(ios, 1), ios, cpu


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=int, default=10, help="per run")
    ap.add_argument("--rounds", type=int, default=2, help="alternating runs per tool and case")
    ap.add_argument("--target", default="build/bench-io/iobw.tst")
    ap.add_argument("--size", default="1GiB", help="data area of the test file")
    ap.add_argument("--qd", type=int, default=32, help="queue depth of the 4 KiB random read")
    ap.add_argument("--vmtn_qd", type=int, default=64, help="queue depth of the VMTN specs")
    ap.add_argument("--engines", default="io_uring,libaio")
    ap.add_argument("--fio_extra", default="", help="extra fio options, space-separated")
    a = ap.parse_args()
    os.makedirs(os.path.dirname(a.target) or ".", exist_ok=True)
    peers.timed([SB, "io", "prepare", "--target", a.target, "--size", a.size])
    size = os.path.getsize(a.target) - HEADER
    extra = a.fio_extra.split()
    print(f"fio {subprocess.run(['fio', '--version'], capture_output=True, text=True).stdout.strip()}"
          f" vs storebench on {a.target} ({size >> 20} MiB data area), O_DIRECT, 1 job/worker, "
          f"{a.seconds} s per run, {a.rounds} alternating run(s) each; medians")
    print("CPU: user+system time of each tool's process (rusage), per I/O the tool reports")
    print("IOPS ratio = storebench / fio (goal >= 1.0); CPU ratio = storebench / fio CPU time "
          "per I/O (goal <= 1.0)\n")
    print(f"{'specification':26} {'engine':8} {'QD':>3} {'fio IOPS':>10} {'sb IOPS':>10} "
          f"{'IOPS ratio':>10} {'fio us/IO':>9} {'sb us/IO':>9} {'CPU ratio':>9}")
    for engine in a.engines.split(","):
        for i, (name, sb_spec, fio_opts) in enumerate(SPECS):
            qd = a.qd if i == 0 else a.vmtn_qd
            fio_runs, sb_runs = [], []
            for r in range(a.rounds):
                # Alternate which tool goes first, so drift on the machine hits both.
                order = [0, 1] if r % 2 == 0 else [1, 0]
                for which in order:
                    if which == 0:
                        fio_runs.append(run_fio(a.target, size, fio_opts, engine, qd, a.seconds,
                                                extra))
                    else:
                        sb_runs.append(run_storebench(a.target, size, sb_spec, engine, qd,
                                                      a.seconds))
            f_iops = statistics.median(x[0] for x in fio_runs)
            s_iops = statistics.median(x[0] for x in sb_runs)
            f_cpu = statistics.median(x[1] for x in fio_runs)
            s_cpu = statistics.median(x[1] for x in sb_runs)
            print(f"{name:26} {engine:8} {qd:3d} {f_iops:10.0f} {s_iops:10.0f} "
                  f"{s_iops / f_iops:10.2f} {f_cpu * 1e6:9.2f} {s_cpu * 1e6:9.2f} "
                  f"{s_cpu / f_cpu:9.2f}", flush=True)
    # The generators' own ceiling: the null engine does no I/O, so IOPS per CPU second is what
    # one core can generate and account for.
    print()
    _, s_cpu_io, s_ios, s_cpu = run_storebench(a.target, size, SPECS[0][1], "null", a.qd,
                                               a.seconds)
    _, f_cpu_io, f_ios, f_cpu = run_fio(a.target, size, SPECS[0][2], "null", a.qd, a.seconds,
                                        extra)
    print(f"null engine ceiling (4 KiB random read, QD {a.qd}, 1 worker): storebench "
          f"{s_ios / s_cpu / 1e6:.2f} M IOPS per core ({s_cpu_io * 1e9:.0f} ns CPU per I/O), "
          f"fio {f_ios / f_cpu / 1e6:.2f} M IOPS per core ({f_cpu_io * 1e9:.0f} ns CPU per I/O)")


if __name__ == "__main__":
    main()
