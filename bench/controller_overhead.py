#!/usr/bin/env python3
"""The run controller's overhead with many instances: the null back end and the noop workload
(one trivial call per operation), 1, 8, 64 and 256 instances of 4 threads each, all under one
controller (DVD Store 3's target list: --db "null://;null://;..."). For each count: operations
per second in all, per core of the storebench process's CPU, the ratio of that to one instance
(the goal: within 10 % at 64 instances), and the process's peak memory per instance.

More instances also mean more threads, and threads cost on their own (scheduling, caches): the
"vs 1x" column compares each count with ONE instance running the same number of threads, so
what remains is the cost of the instances themselves (the controller's sampling, per-instance
series and merges).

  bench/controller_overhead.py [--binary build/storebench] [--seconds 10] [--counts 1,8,64,256]
"""
import argparse
import json
import os
import resource
import subprocess
import tempfile


def run(binary, count, seconds, tmp, threads=None):
    threads = threads or 4 * count
    out = os.path.join(tmp, f"n{count}-t{threads}.json")
    # One database each: a run refuses a database named twice.
    dbs = ";".join(f"null:///instance{i}" for i in range(1, count + 1))
    cmd = [binary, "oltp", "run", "--workload=noop", "--db", dbs, f"--n_threads={threads}",
           "--ramp_rate=10000", "--warmup_time=0", f"--run_time={seconds}s", "--progress=none",
           "--json", out]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(cmd, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        raise SystemExit(f"failed ({p.returncode}): {' '.join(cmd[:6])} ...\n{p.stderr[-2000:]}")
    with open(out) as f:
        d = json.load(f)
    ops = d["operations"][0]["count"] / d["measured_sec"]
    cpu = d["driver"]["cpu_share_of_core"]
    # ru_maxrss of children is the largest child so far (KiB): each run is larger than the last.
    rss_mib = after.ru_maxrss / 1024
    return ops, cpu, rss_mib


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", default="build/storebench")
    ap.add_argument("--seconds", type=int, default=10)
    ap.add_argument("--counts", default="1,8,64,256")
    args = ap.parse_args()
    counts = [int(c) for c in args.counts.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        rows = []
        for n in counts:
            ops, cpu, rss = run(args.binary, n, args.seconds, tmp)
            # The same threads in one instance, run right after (alternating keeps drift even).
            ops1, cpu1, _ = run(args.binary, 1, args.seconds, tmp, threads=4 * n)
            rows.append((n, ops, cpu, rss, ops1 / cpu1 if cpu1 > 0 else 0))
    base = rows[0][1] / rows[0][2] if rows[0][2] > 0 else 0
    base_rss = rows[0][3]
    print(f"{'instances':>9} {'threads':>7} {'ops/s':>12} {'cpu/core':>9} {'ops/s/core':>12} "
          f"{'vs 1':>6} {'vs 1x':>6} {'peak MiB':>9} {'MiB/instance':>13}")
    for n, ops, cpu, rss, same_threads in rows:
        per_core = ops / cpu if cpu > 0 else 0
        extra = (rss - base_rss) / (n - 1) if n > 1 else 0
        print(f"{n:>9} {4 * n:>7} {ops:>12.0f} {cpu:>9.2f} {per_core:>12.0f} "
              f"{per_core / base if base else 0:>6.2f} "
              f"{per_core / same_threads if same_threads else 0:>6.2f} {rss:>9.1f} "
              f"{extra:>13.2f}")


if __name__ == "__main__":
    main()
