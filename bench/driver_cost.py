"""Runs storebench and a peer on the same work, alternating, and prints ratios (see
driver_cost.sh). Client CPU is the child's user+system time from its rusage."""
import argparse
import json
import os
import re
import statistics
import subprocess
import tempfile

import peers

SB = "build/storebench"
TABLES, SIZE = 4, 100000


def timed(cmd):
    """Runs cmd; returns (stdout, (user, system) CPU seconds from the child's rusage)."""
    out, user, system, _ = peers.timed_split(cmd)
    return out, (user, system)


def per_txn(cpu, n):
    """(user, system) CPU seconds per transaction."""
    return (cpu[0] / max(n, 1), cpu[1] / max(n, 1))


def storebench(url, test, secs, threads, extra=()):
    with tempfile.NamedTemporaryFile(suffix=".json") as f:
        _, cpu = timed([SB, "oltp", "run", "--workload", "oltp", "--db", url, "--test", test,
                        "--tables", str(TABLES), "--table_size", str(SIZE), "--threads",
                        str(threads), "--duration", f"{secs}s", "--warmup", "0",
                        "--progress=none", "--json", f.name, *extra])
        doc = json.load(open(f.name))
    n = doc["figures"]["transactions"]
    return n / doc["measured_sec"], per_txn(cpu, n)


def sysbench(db_args, test, secs, threads):
    out, cpu = timed(["sysbench", f"oltp_{test}", *db_args, f"--tables={TABLES}",
                      f"--table-size={SIZE}", f"--threads={threads}", f"--time={secs}",
                      "--db-ps-mode=auto", "run"])
    n = int(re.search(r"transactions:\s+(\d+)", out).group(1))
    tps = float(re.search(r"transactions:\s+\d+\s+\(([\d.]+) per sec", out).group(1))
    return tps, per_txn(cpu, n)


def pgbench(host, port, db, secs, threads):
    out, cpu = timed(["pgbench", "-h", host, "-p", str(port), "-U", "storebench", "-S", "-M",
                      "prepared", "-c", str(threads), "-j", str(threads), "-T", str(secs), db])
    n = int(re.search(r"number of transactions actually processed: (\d+)", out).group(1))
    tps = float(re.search(r"tps = ([\d.]+) \(without initial", out).group(1))
    return tps, per_txn(cpu, n)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=int, default=20)
    ap.add_argument("--threads", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=3,
                    help="alternating runs per program and pair; medians are printed")
    a = ap.parse_args()
    # The servers of scripts/services.sh; the tables go into their sbtest databases.
    pg_url = re.sub(r"/\w+$", "/sbtest", os.environ["STOREBENCH_PG_URL"])
    my_url = re.sub(r"/\w+$", "/sbtest", os.environ["STOREBENCH_MYSQL_URL"])
    pg = re.match(r"postgresql://(\w+)@([\d.]+):(\d+)/(\w+)", pg_url)
    my = re.match(r"mysql://(\w+)@([\d.]+):(\d+)/(\w+)", my_url)
    pg_args = ["--db-driver=pgsql", f"--pgsql-host={pg[2]}", f"--pgsql-port={pg[3]}",
               f"--pgsql-user={pg[1]}", f"--pgsql-db={pg[4]}"]
    my_args = ["--db-driver=mysql", f"--mysql-host={my[2]}", f"--mysql-port={my[3]}",
               f"--mysql-user={my[1]}", f"--mysql-db={my[4]}"]
    # The same tables for both programs: storebench loads sbtest1..4, sysbench reuses them.
    for url in (pg_url, my_url):
        timed([SB, "oltp", "load", "--workload", "oltp", "--db", url, "--tables", str(TABLES),
               "--table_size", str(SIZE), "--force"])
    subprocess.run(["pgbench", "-h", pg[2], "-p", pg[3], "-U", pg[1], "-i", "-s", "10", "-q",
                    pg[4]], capture_output=True, check=True)
    pairs = [
        ("PostgreSQL oltp_read_write", lambda: sysbench(pg_args, "read_write", a.seconds, a.threads),
         lambda: storebench(pg_url, "read_write", a.seconds, a.threads)),
        ("PostgreSQL oltp_point_select", lambda: sysbench(pg_args, "point_select", a.seconds, a.threads),
         lambda: storebench(pg_url, "point_select", a.seconds, a.threads)),
        ("MariaDB oltp_read_write", lambda: sysbench(my_args, "read_write", a.seconds, a.threads),
         lambda: storebench(my_url, "read_write", a.seconds, a.threads)),
        ("MariaDB oltp_point_select", lambda: sysbench(my_args, "point_select", a.seconds, a.threads),
         lambda: storebench(my_url, "point_select", a.seconds, a.threads)),
        ("PostgreSQL pgbench -S -M prepared", lambda: pgbench(pg[2], pg[3], pg[4], a.seconds, a.threads),
         lambda: storebench(pg_url, "point_select", a.seconds, a.threads)),
    ]
    print("cpu = user + system time per transaction (rusage); user ratio = storebench's user time "
          "per transaction / the peer's;")
    print("peer sys = the share of the peer's CPU spent in the kernel (the same statements over "
          "the same transport cost both programs the same kernel work)\n")
    print(f"{'pair (peer vs storebench)':36} {'peer tps':>10} {'sb tps':>10} {'tps ratio':>9} "
          f"{'peer cpu/txn':>13} {'sb cpu/txn':>11} {'cpu ratio':>9} {'user ratio':>10} "
          f"{'peer sys':>8}")
    for name, peer, ours in pairs:
        p_runs, s_runs = [], []
        for _ in range(a.rounds):  # alternate, so drift on the machine hits both
            p_runs.append(peer())
            s_runs.append(ours())
        # Medians: on a busy or virtual machine one run in a few is far off.
        p_tps = statistics.median(r[0] for r in p_runs)
        s_tps = statistics.median(r[0] for r in s_runs)
        p_user = statistics.median(r[1][0] for r in p_runs)
        p_sys = statistics.median(r[1][1] for r in p_runs)
        s_user = statistics.median(r[1][0] for r in s_runs)
        s_sys = statistics.median(r[1][1] for r in s_runs)
        p_cpu, s_cpu = p_user + p_sys, s_user + s_sys
        print(f"{name:36} {p_tps:10.0f} {s_tps:10.0f} {s_tps / p_tps:9.2f} "
              f"{p_cpu * 1e6:11.1f}us {s_cpu * 1e6:9.1f}us {s_cpu / p_cpu:9.2f} "
              f"{s_user / max(p_user, 1e-12):10.2f} {100 * p_sys / p_cpu:7.0f}%", flush=True)


if __name__ == "__main__":
    main()
