#!/usr/bin/env python3
"""The power sampler's cost (issue #11), with no power hardware:

1. CPU per second of sampling with 1, 4 and 16 sources: `storebench power log` for a fixed time
   with N sources of one kind, the child's user + system CPU (its rusage) divided by the
   seconds. Kinds: ptd (PTDaemon simulator connections on loopback, tests/ptd_simulator.py; the
   simulator's own CPU is not counted), rapl (a powercap tree in a temporary directory, two
   zones), cmd (`echo 100`: a shell started every second per source). The process's start and
   exit are included; the 0-source line is `power log` without sampling to subtract.
2. A null-back-end run's throughput with and without sampling: `oltp run --workload=noop
   --db null://`, alternating runs without --power and with 4 PTDaemon sources, the median of
   each, and their ratio (the goal: less than 0.5 % lower with sampling). Beside it, the
   storebench process's CPU per operation (its own rusage over the measured window), which a
   machine shared with other work disturbs less than throughput.

  bench/power_overhead.py [--binary build/storebench] [--seconds 20] [--rounds 3]
"""
import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile


def child_cpu(cmd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(cmd, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        raise SystemExit(f"failed ({p.returncode}): {' '.join(cmd[:8])}\n{p.stderr[-2000:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), p


def start_simulator(source):
    sim = subprocess.Popen([sys.executable, os.path.join(source, "tests", "ptd_simulator.py"),
                            "--watts", "200"], stdout=subprocess.PIPE, text=True)
    port = int(sim.stdout.readline().split()[1])
    return sim, port


def powercap_tree(tmp):
    root = os.path.join(tmp, "powercap")
    for d, name in (("intel-rapl:0", "package-0"), ("intel-rapl:0:0", "dram")):
        os.makedirs(os.path.join(root, d))
        for f, v in (("name", name), ("energy_uj", "1000"), ("max_energy_range_uj", "262143328850")):
            with open(os.path.join(root, d, f), "w") as fh:
                fh.write(v + "\n")
    return root


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", default="build/storebench")
    ap.add_argument("--source", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    ap.add_argument("--seconds", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--counts", default="1,4,16")
    ap.add_argument("--part", choices=["all", "cpu", "throughput"], default="all")
    args = ap.parse_args()
    counts = [int(c) for c in args.counts.split(",")]
    sim, port = start_simulator(args.source)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            root = powercap_tree(tmp)
            kinds = {
                "ptd": f"ptd://127.0.0.1:{port}",
                "rapl": f"rapl:?root={root}",
                "cmd": 'cmd:"echo 100"',
            }
            # The process's fixed cost (start, exit) is that of `version`.
            base, _ = child_cpu([args.binary, "version"])
            if args.part == "throughput":
                kinds_cpu = {}
            else:
                kinds_cpu = kinds
            print(f"sampler CPU per second of sampling ({args.seconds} s of power log each; "
                  f"process start/exit {base * 1000:.1f} ms subtracted)")
            print(f"{'kind':>5} {'sources':>7} {'CPU ms/s':>9} {'per source':>11}")
            for kind, spec in kinds_cpu.items():
                for n in counts:
                    cmd = [args.binary, "power", "log", f"--duration={args.seconds}s",
                           "--json", os.path.join(tmp, "log.json")]
                    for _ in range(n):
                        cmd += ["--power", spec]
                    cpu, _ = child_cpu(cmd)
                    ms = (cpu - base) / args.seconds * 1000
                    print(f"{kind:>5} {n:>7} {ms:>9.2f} {ms / n:>11.2f}")

            if args.part == "cpu":
                return
            print(f"\nnull back end, noop workload, 2 threads, {args.seconds} s per run, "
                  f"{args.rounds} rounds alternating (medians)")
            rates = {"without": [], "with 4 ptd sources": []}
            cpu_per_op = {k: [] for k in rates}
            for _ in range(args.rounds):
                for label in rates:
                    out = os.path.join(tmp, "run.json")
                    cmd = [args.binary, "oltp", "run", "--workload=noop", "--db", "null://",
                           "--n_threads=2", "--warmup_time=0", f"--run_time={args.seconds}s",
                           "--progress=none", "--json", out]
                    if label != "without":
                        for _ in range(4):
                            cmd += ["--power", kinds["ptd"]]
                    child_cpu(cmd)
                    with open(out) as f:
                        d = json.load(f)
                    rates[label].append(d["operations"][0]["count"] / d["measured_sec"])
                    cpu_per_op[label].append(d["driver"]["cpu_sec_per_op"] * 1e9)
            med = {k: statistics.median(v) for k, v in rates.items()}
            for k, v in rates.items():
                print(f"  {k:>20}: median {med[k]:,.0f} ops/s  (runs: "
                      + ", ".join(f"{x:,.0f}" for x in v) + ")")
            ratio = med["with 4 ptd sources"] / med["without"]
            print(f"  ratio with/without: {ratio:.4f} ({(ratio - 1) * 100:+.2f} %)")
            cmed = {k: statistics.median(v) for k, v in cpu_per_op.items()}
            for k, v in cpu_per_op.items():
                print(f"  {k:>20}: median {cmed[k]:.1f} ns CPU per operation  (runs: "
                      + ", ".join(f"{x:.1f}" for x in v) + ")")
            cratio = cmed["with 4 ptd sources"] / cmed["without"]
            print(f"  CPU per operation with/without: {cratio:.4f} ({(cratio - 1) * 100:+.2f} %)")
    finally:
        sim.terminate()
        sim.wait()


if __name__ == "__main__":
    main()
