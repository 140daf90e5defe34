#!/usr/bin/env python3
"""Scale-out over MPI on this machine (issue #15, docs/scale-out.md): the null back end and the
noop workload under `mpirun -np K` for K = 1, 2, 4, 8, one thread per rank.

For each K, from one run's result: the merged operations per second (rank 0's figure), the sum
of the ranks' own counts against the merged count (the goal: the merge loses nothing, so the
difference is 0), the largest start skew between ranks (offset corrected; goal: under 10 ms on
one host) and its clock-offset uncertainty. Then the coordinator's CPU per second at the largest
K, measured with idle workers (think time 1 s, so the process's CPU is the coordination itself)
side by side with the same idle run of one process without mpirun.

With 8 ranks on a 2-core machine the ranks are oversubscribed: operations per second do not
scale, and start skew includes the time a rank waits for a core.

  bench/mpi_merge.py [--binary build/storebench] [--seconds 5] [--ranks 1,2,4,8]
"""
import argparse
import json
import os
import shutil
import subprocess
import tempfile


def run(binary, ranks, seconds, tmp, think=0.0, mpi=True):
    out = os.path.join(tmp, f"k{ranks}-t{think}-{'mpi' if mpi else 'plain'}.json")
    cmd = [binary, "oltp", "run", "--workload=noop", "--db", "null://",
           f"--n_threads={ranks}", "--warmup_time=1s", f"--run_time={seconds}s",
           f"--think_time={think}", "--progress=none", "--json", out]
    if mpi:
        cmd = [shutil.which("mpirun"), "--oversubscribe", "--allow-run-as-root", "-np",
               str(ranks)] + cmd
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(out) as f:
        return json.load(f)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", default="build/storebench")
    ap.add_argument("--seconds", type=int, default=5)
    ap.add_argument("--ranks", default="1,2,4,8")
    a = ap.parse_args()
    counts = [int(x) for x in a.ranks.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        print(f"{'ranks':>5} {'merged ops/s':>13} {'merged count':>13} {'sum of ranks':>13} "
              f"{'lost':>5} {'max start skew ms':>18} {'offset unc. ms':>15}")
        for k in counts:
            d = run(a.binary, k, a.seconds, tmp)
            merged = d["operations"][0]["count"]
            so = d.get("scale_out")
            if so:
                total = sum(p["units"] for p in so["per_rank"])
                skew = so["start_skew_ms_max"]
                unc = max(p["clock_offset_ms"]["start_uncertainty"] for p in so["per_rank"])
            else:  # one rank: no group, exactly a run without mpirun
                total, skew, unc = merged, 0.0, 0.0
            print(f"{k:>5} {merged / d['measured_sec']:>13.0f} {merged:>13} {total:>13} "
                  f"{merged - total:>5} {skew:>18.3f} {unc:>15.3f}")
        k = max(counts)
        idle = run(a.binary, k, a.seconds, tmp, think=1.0)
        plain = run(a.binary, 1, a.seconds, tmp, think=1.0, mpi=False)
        r0 = idle["scale_out"]["per_rank"][0]
        others = [p["driver_cpu_sec"] for p in idle["scale_out"]["per_rank"][1:]]
        sec = idle["measured_sec"]
        print(f"\ncoordinator (rank 0) CPU with {k} ranks, idle workers: "
              f"{1000 * r0['driver_cpu_sec'] / sec:.2f} ms per second "
              f"(other ranks: mean {1000 * sum(others) / len(others) / sec:.2f} ms/s; "
              f"one process without mpirun: {1000 * plain['driver']['cpu_sec'] / plain['measured_sec']:.2f} ms/s)")


if __name__ == "__main__":
    main()
