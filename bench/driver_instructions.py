"""User-space instructions per transaction, storebench beside sysbench and pgbench, counted by
callgrind (see driver_instructions.sh). Unlike CPU seconds, instruction counts do not depend on
what else the machine is doing, so this is the figure to compare on a noisy machine. It covers
everything the client process executes in user space (the program, its client library, libc),
not the kernel: system time is the same work for both programs when they send the same
statements over the same transport, and driver_cost.sh shows its share.

Each program runs one connection twice under callgrind: N transactions and 1 transaction; the
difference divided by N - 1 is the instructions per transaction without start-up. storebench's
count is for the whole process, its once-a-second reporting thread included (under callgrind a
run lasts many seconds, so that thread's share is larger than in a real run)."""
import argparse
import glob
import os
import re
import subprocess
import tempfile

import peers

SB = "build/storebench"
TABLES, SIZE = 4, 100000


def instructions(cmd):
    """Runs cmd under callgrind; returns the instructions executed (all threads)."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "cg.out")
        p = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *cmd],
                           capture_output=True, text=True)
        if p.returncode != 0:
            raise SystemExit(f"failed: {' '.join(cmd)}\n{p.stdout[-2000:]}\n{p.stderr[-2000:]}")
        m = re.search(r"Collected : (\d+)", p.stderr)
        return int(m.group(1))


def per_transaction(make_cmd, n):
    many = instructions(make_cmd(n))
    one = instructions(make_cmd(1))
    return (many - one) / (n - 1)


def storebench(url, test):
    return lambda n: [SB, "oltp", "run", "--workload", "oltp", "--db", url, "--test", test,
                      "--tables", str(TABLES), "--table_size", str(SIZE), "--threads", "1",
                      "--units_per_thread", str(n), "--duration", "3600s", "--warmup", "0",
                      "--progress=none", "--server_check=N", "--json", os.devnull]


def sysbench(server, test):
    return lambda n: ["sysbench", f"oltp_{test}", *server.sysbench_args(), f"--tables={TABLES}",
                      f"--table-size={SIZE}", "--threads=1", f"--events={n}", "--time=0",
                      "--db-ps-mode=auto", "run"]


def pgbench(server):
    # The real binary: /usr/bin/pgbench is Debian's Perl wrapper, which callgrind would count.
    binary = sorted(glob.glob("/usr/lib/postgresql/*/bin/pgbench"))[-1]
    return lambda n: [binary, "-h", server.host, "-p", server.port, "-U", server.user, "-S", "-M",
                      "prepared", "-c", "1", "-j", "1", "-t", str(n), server.db]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--point_selects", type=int, default=20000,
                    help="transactions per point-select run")
    ap.add_argument("--read_writes", type=int, default=1000,
                    help="transactions per read_write run")
    a = ap.parse_args()
    pg = peers.Server("STOREBENCH_PG_URL", "sbtest")
    my = peers.Server("STOREBENCH_MYSQL_URL", "sbtest")
    # The same tables for every program, as in driver_cost.sh.
    for server in (pg, my):
        peers.timed([SB, "oltp", "load", "--workload", "oltp", "--db", server.url, "--tables",
                     str(TABLES), "--table_size", str(SIZE), "--force"])
    subprocess.run(["pgbench", "-h", pg.host, "-p", pg.port, "-U", pg.user, "-i", "-s", "10",
                    "-q", pg.db], capture_output=True, check=True)
    pairs = [
        ("PostgreSQL oltp_read_write", sysbench(pg, "read_write"), storebench(pg.url, "read_write"),
         a.read_writes),
        ("PostgreSQL oltp_point_select", sysbench(pg, "point_select"),
         storebench(pg.url, "point_select"), a.point_selects),
        ("MariaDB oltp_read_write", sysbench(my, "read_write"), storebench(my.url, "read_write"),
         a.read_writes),
        ("MariaDB oltp_point_select", sysbench(my, "point_select"),
         storebench(my.url, "point_select"), a.point_selects),
        ("PostgreSQL pgbench -S -M prepared", pgbench(pg), storebench(pg.url, "point_select"),
         a.point_selects),
    ]
    print("user-space instructions per transaction (callgrind; one connection; start-up "
          "subtracted)")
    print("(sysbench's oltp_point_select, pgbench -S and storebench's point_select: one "
          "statement per transaction)\n")
    print(f"{'pair (peer vs storebench)':36} {'peer':>12} {'storebench':>12} {'ratio':>7}")
    for name, peer, ours, n in pairs:
        p = per_transaction(peer, n)
        s = per_transaction(ours, n)
        print(f"{name:36} {p:12.0f} {s:12.0f} {s / p:7.2f}", flush=True)


if __name__ == "__main__":
    main()
