"""Result files of every kind for the compare and report tests: short real runs (the noop workload
on the null back end, a storage run on the null engine, a timed command) and a consolidation
search file over them."""
import concurrent.futures
import json
import os

import harness

HOSTILE = "<script>window.__pwned=1</script>&\"'"
# Markup in a database's name (a null:// target takes any text): the report escapes it too.
HOSTILE_DB = "<img src=x onerror=window.__pwned=1>&lt"  # no ";": it separates targets


def in_parallel(*calls):
    """Runs the fixtures `calls` (functions of no arguments) side by side and returns their
    results in order: the runs below mostly wait out their seconds, so three of them take the
    time of the longest."""
    with concurrent.futures.ThreadPoolExecutor(len(calls)) as pool:
        futures = [pool.submit(call) for call in calls]
        return [f.result() for f in futures]


def run_noop(name, label, threads=2, instances=1, extra=()):
    """A 3-second noop run (1 s warm-up, the window 1s-3s) written to name.json; returns its
    path. Its threads think 1 ms after each operation: a report draws what they did as well as
    what threads spinning on the cores for 3 s did."""
    path = harness.tmp_path(name + ".json")
    db = ";".join(f"null://{name}{i}{HOSTILE_DB}" for i in range(instances)) \
        if instances > 1 else "null://"
    p = harness.storebench("oltp", "run", "--workload=noop", "--db", db, "--n_threads",
                           str(threads * instances), "--run_time", "2s", "--warmup_time", "1s",
                           "--window", "1s-3s", "--baseline", "ops_per_minute>=1@1s-3s", "--label", label,
                           "--think_time", "0.001", "--json", path, *extra)
    assert p.returncode == 0, p.stderr
    return path


def storage_run(name, label):
    target = harness.tmp_path(name + ".tst")
    if not os.path.exists(target):
        p = harness.storebench("io", "prepare", "--target", target, "--size", "32MiB")
        assert p.returncode == 0, p.stderr
    path = harness.tmp_path(name + ".json")
    # The preset's four specifications of 2 s each without ramp-up (after 1 s of it they took
    # 12 s): two points per specification, for the report's per-second lines. Open loop at
    # 20,000 I/Os a second: the null engine in a closed loop spins on a core for the 8 s.
    p = harness.storebench("io", "run", "--target", target, "--preset", "vmtn", "--engine",
                           "null", "--run_time", "2s", "--ramp_time", "0s", "--max_size", "16MiB",
                           "--rate", "20000", "--label", label, "--json", path)
    assert p.returncode == 0, p.stderr
    return path


def search_file(name, run_file):
    """A search over 1..3 instances whose median runs are `run_file` (a run of 3 instances)."""
    counts = []
    for n, (mn, md, ag, ok) in enumerate([(100, 100, 100, True), (90, 95, 185, True),
                                          (40, 60, 150, False)], 1):
        counts.append({"count": n, "passed": ok, "median_run": 0, "runs_passed": int(ok),
                       "runs": [{"result_file": run_file, "exit_code": 0 if ok else 1,
                                 "passed": ok, "deciding_figure": mn, "instance_min": mn,
                                 "instance_median": md, "aggregate": ag}]})
    s = {"kind": "storebench consolidation search", "plan": "plan.toml", "step": "linear",
         "instances": {"from": 1, "to": 3}, "runs_per_count": 1, "headline": "ops_per_minute",
         "finished": True, "peak": 2, "counts": counts}
    path = harness.tmp_path(name + ".json")
    with open(path, "w") as f:
        json.dump(s, f, indent=2)
    return path


def with_headline(src, dst_name, label, value):
    """A copy of the result `src` whose first headline is `value` (and `label`): constructed
    results with known figures."""
    with open(src) as f:
        d = json.load(f)
    d["label"] = label
    name = d["headline"]["name"]
    d["headline"]["value"] = value
    d["headlines"][name] = value
    d.pop("instances", None)
    path = harness.tmp_path(dst_name + ".json")
    with open(path, "w") as f:
        json.dump(d, f)
    return path


def dvdstore_load(name):
    """The 1 MB SQLite database of dvdstore_run(name, ...), loaded afresh."""
    db = harness.tmp_path(name + ".db")
    harness.remove_sqlite(db)
    p = harness.storebench("oltp", "load", "--db", "sqlite://" + db, "--db_size=1MB")
    assert p.returncode == 0, p.stderr


def dvdstore_run(name, label, load=True):
    """A 3-second DVD Store run (1 s warm-up) on a 1 MB SQLite database, loaded once (here, or
    by dvdstore_load(name) before when `load` is False): nine operation types from 0.01 ms to
    tens of ms and 13 counters, the widest tables of a report."""
    db = harness.tmp_path(name + ".db")
    if load:
        dvdstore_load(name)
    path = harness.tmp_path(name + ".json")
    p = harness.storebench("oltp", "run", "--db", "sqlite://" + db, "--db_size=1MB",
                           "--n_threads=2", "--run_time=3s", "--warmup_time=1s", "--label", label,
                           "--json", path)
    assert p.returncode == 0, p.stderr
    return path


def with_latency_scaled(src, dst_name, label, factor):
    """A copy of the result `src` whose operations' percentiles are `factor` times theirs (and
    without instances): a group whose latencies are far from the other's, as microseconds
    against milliseconds."""
    with open(src) as f:
        d = json.load(f)
    d["label"] = label
    for op in d["operations"]:
        for key in ("mean_ms", "min_ms", "p50_ms", "p90_ms", "p95_ms", "p99_ms", "p999_ms",
                    "max_ms"):
            op[key] *= factor
        op.pop("histogram", None)
    d.pop("instances", None)
    path = harness.tmp_path(dst_name + ".json")
    with open(path, "w") as f:
        json.dump(d, f)
    return path
