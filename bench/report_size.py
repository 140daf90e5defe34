#!/usr/bin/env python3
"""storebench report's generation time and page size for the two large cases of issue #12:
a 30-minute run of 8 instances, and a 16-step consolidation search (counts 1..16, each median
run a 30-minute run of that many instances). The goal: under 1 s and under 5 MB each.

The inputs are made from a real short run (the noop workload on the null back end, 8 instances,
a window and a baseline) whose 1-second points are repeated to 1,800 s (times shifted, the first
300 s warm-up), so the files have the layout and size of real 30-minute results without taking
30 minutes to make. Each case is timed --repeat times (wall clock of the whole command, reading
included); the median and the fastest are printed, with the page's size and the inputs' size.

  bench/report_size.py [--binary build/storebench] [--repeat 5]
"""
import argparse
import copy
import json
import os
import resource
import statistics
import subprocess
import tempfile
import time

SECONDS = 1800
WARMUP = 300


def stretch(doc, seconds=SECONDS):
    """Repeats the document's points (and each instance's, and the SUT CPU's) to `seconds`."""
    def series(ts):
        pts = [p for p in ts["points"] if p["phase"] == "measure"] or ts["points"]
        out = []
        for i in range(seconds):
            p = copy.deepcopy(pts[i % len(pts)])
            p["t"] = float(i + 1)
            p["phase"] = "warmup" if i < WARMUP else "measure"
            out.append(p)
        ts["points"] = out
    series(doc["time_series"])
    if doc.get("sut_cpu", {}).get("points"):
        cols = doc["sut_cpu"]["points"]
        n = len(cols["t"])
        for k in cols:
            cols[k] = [float(i + 1) if k == "t" else cols[k][i % n] for i in range(seconds)]
    doc["measured_sec"] = float(seconds - WARMUP)
    for inst in doc.get("instances", []):
        stretch(inst, seconds)


def with_instances(doc, n):
    """`doc` (a run of several instances) with exactly n instances (copies renamed)."""
    d = copy.deepcopy(doc)
    base = doc["instances"]
    d["instances"] = []
    for i in range(n):
        inst = copy.deepcopy(base[i % len(base)])
        inst["name"] = str(i + 1)
        inst["target"] = f"null://{i + 1}"
        d["instances"].append(inst)
    return d


def child_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(binary, args, repeat):
    """Median and fastest wall time, and the median CPU time (user + system) of the report
    process: on a machine shared with other work the wall time includes waiting for a core, the
    CPU time much less so."""
    times, cpus = [], []
    for _ in range(repeat):
        c0 = child_cpu()
        t0 = time.perf_counter()
        p = subprocess.run([binary, "report", *args], capture_output=True, text=True)
        times.append(time.perf_counter() - t0)
        cpus.append(child_cpu() - c0)
        if p.returncode != 0:
            raise SystemExit(f"report failed: {p.stderr}")
    return statistics.median(times), min(times), statistics.median(cpus)


def timed_json_load(paths, repeat):
    """The peer: Python's json module only reading the same inputs (no page made), in a process
    of its own like the report's."""
    code = "import json,sys\nfor p in sys.argv[1:]:\n  json.load(open(p))\n"
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        subprocess.run(["/usr/bin/python3", "-c", code, *paths], check=True)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", default="build/storebench")
    ap.add_argument("--repeat", type=int, default=5)
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="sb-report-bench-")
    src = os.path.join(tmp, "short.json")
    dbs = ";".join(f"null://{i}" for i in range(8))
    p = subprocess.run([a.binary, "oltp", "run", "--workload=noop", "--db", dbs,
                        "--n_threads=8", "--warmup_time=2s", "--run_time=8s", "--progress=none",
                        "--window", "3s-8s", "--baseline", "ops_per_minute>=1@3s-8s",
                        "--json", src], capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit(p.stderr)
    with open(src) as f:
        short = json.load(f)

    run = copy.deepcopy(short)
    stretch(run)
    run_file = os.path.join(tmp, "run-8x30min.json")
    with open(run_file, "w") as f:
        json.dump(run, f)
    out = os.path.join(tmp, "run.html")
    med, best, cpu = timed(a.binary, [run_file, "-o", out], a.repeat)
    peer = timed_json_load([run_file], a.repeat)
    print(f"30-minute run, 8 instances: input {os.path.getsize(run_file) / 1e6:.1f} MB, "
          f"page {os.path.getsize(out) / 1e6:.2f} MB, {med:.3f} s median, {best:.3f} s fastest "
          f"of {a.repeat}, CPU {cpu:.3f} s median; python3 json.load of the input alone {peer:.3f} s "
          f"(report / json.load = {med / peer:.2f})")

    runs_dir = os.path.join(tmp, "search-runs")
    os.makedirs(runs_dir)
    counts = []
    total = 0
    for n in range(1, 17):
        d = with_instances(short, n)
        stretch(d)
        path = os.path.join(runs_dir, f"n{n}-run1.json")
        with open(path, "w") as f:
            json.dump(d, f)
        total += os.path.getsize(path)
        ok = n <= 12
        counts.append({"count": n, "passed": ok, "median_run": 0, "runs_passed": int(ok),
                       "runs": [{"result_file": path, "exit_code": 0 if ok else 1, "passed": ok,
                                 "deciding_figure": 1000.0 / n, "instance_min": 1000.0 / n,
                                 "instance_median": 1100.0 / n, "aggregate": 1100.0}]})
    search = {"kind": "storebench consolidation search", "plan": "plan.toml", "step": "linear",
              "instances": {"from": 1, "to": 16}, "runs_per_count": 1,
              "headline": "ops_per_minute", "finished": True, "peak": 12, "counts": counts}
    search_file = os.path.join(tmp, "search.json")
    with open(search_file, "w") as f:
        json.dump(search, f, indent=2)
    out = os.path.join(tmp, "search.html")
    med, best, cpu = timed(a.binary, [search_file, "-o", out], a.repeat)
    peer = timed_json_load([search_file, os.path.join(runs_dir, "n12-run1.json")], a.repeat)
    print(f"16-step search (median runs of 1..16 instances, 30 minutes each): inputs "
          f"{total / 1e6:.1f} MB in 17 files, page {os.path.getsize(out) / 1e6:.2f} MB, "
          f"{med:.3f} s median, {best:.3f} s fastest of {a.repeat}, CPU {cpu:.3f} s median; "
          f"python3 json.load of the "
          f"search and the peak's run alone {peer:.3f} s (report / json.load = {med / peer:.2f})")
    print(f"(inputs and pages in {tmp})")


if __name__ == "__main__":
    main()
