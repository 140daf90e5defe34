"""Runs DVD Store in both SQL modes on PostgreSQL and MariaDB, alternating, and prints OPM, the
driver's CPU seconds per order and the procedures/client ratios (see dvdstore_modes.sh). Driver
CPU is the storebench child's user+system time from its rusage, whole process, both modes alike."""
import argparse
import json
import os
import re
import resource
import subprocess
import tempfile

SB = "build/storebench"
MODES = ("client", "procedures")


def timed(cmd):
    """Runs cmd; returns (stdout, CPU seconds of the child from its rusage)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(cmd, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        raise SystemExit(f"failed: {' '.join(cmd)}\n{p.stdout}\n{p.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return p.stdout, cpu


def run(url, mode, secs, threads):
    """One run; returns (orders, measured seconds, driver CPU seconds, rollbacks)."""
    with tempfile.NamedTemporaryFile(suffix=".json") as f:
        _, cpu = timed([SB, "oltp", "run", "--db", url, f"--n_threads={threads}",
                        "--warmup_time=0", f"--run_time={secs}s", f"--sql_mode={mode}",
                        "--progress=none", "--json", f.name])
        doc = json.load(open(f.name))
    if not all(c["passed"] for c in doc["verify"]):
        raise SystemExit(f"verify failed after the {mode} run on {url}: {doc['verify']}")
    fig = doc["figures"]
    return fig["n_overall"], doc["measured_sec"], cpu, fig["n_rollbacks_overall"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=int, default=30)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--threads", type=int, default=8)
    ap.add_argument("--database", default="ds3")
    a = ap.parse_args()
    servers = [
        ("PostgreSQL", re.sub(r"/\w+$", "/" + a.database, os.environ["STOREBENCH_PG_URL"])),
        ("MariaDB", re.sub(r"/\w+$", "/" + a.database, os.environ["STOREBENCH_MYSQL_URL"])),
    ]
    rows = []
    for name, url in servers:
        timed([SB, "oltp", "load", "--db", url, "--db_size=S", "--force"])
        tot = {m: [0, 0.0, 0.0, 0] for m in MODES}
        for _ in range(a.rounds):
            for mode in MODES:  # alternating, so drift over time hits both modes alike
                n, secs, cpu, rb = run(url, mode, a.seconds, a.threads)
                t = tot[mode]
                t[0] += n
                t[1] += secs
                t[2] += cpu
                t[3] += rb
        rows.append((name, tot))
    print(f"DVD Store db_size=S, {a.threads} threads, {a.rounds} x {a.seconds} s per mode, "
          "alternating; driver CPU = storebench process user+system (rusage)")
    print(f"{'server':<11} {'mode':<11} {'orders':>7} {'OPM':>7} {'rollback%':>9} "
          f"{'CPU ms/order':>12}")
    for name, tot in rows:
        figs = {}
        for mode in MODES:
            n, secs, cpu, rb = tot[mode]
            opm = 60.0 * n / secs if secs > 0 else 0.0
            cpu_ms = 1000.0 * cpu / n if n else 0.0
            figs[mode] = (opm, cpu_ms)
            print(f"{name:<11} {mode:<11} {n:>7.0f} {opm:>7.0f} {100.0 * rb / max(n, 1):>9.1f} "
                  f"{cpu_ms:>12.3f}")
        (c_opm, c_cpu), (p_opm, p_cpu) = figs["client"], figs["procedures"]
        print(f"{name:<11} {'ratio':<11} procedures/client: OPM {p_opm / c_opm:.2f}x, "
              f"CPU per order {p_cpu / c_cpu:.2f}x")


if __name__ == "__main__":
    main()
