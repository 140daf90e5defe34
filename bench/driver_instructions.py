"""User-space instructions per transaction, storebench beside sysbench and pgbench, counted by
callgrind (see driver_instructions.sh). Unlike CPU seconds, instruction counts do not depend on
what else the machine is doing, so this is the figure to compare on a noisy machine. It covers
everything the client process executes in user space (the program, its client library, libc),
not the kernel: system time is the same work for both programs when they send the same
statements over the same transport, and driver_cost.sh shows its share.

Each program runs one connection twice under callgrind: N transactions and 1 transaction; the
difference divided by N - 1 is the instructions per transaction without start-up. storebench's
count is for the whole process, its once-a-second reporting thread included (under callgrind a
run lasts many seconds, so that thread's share is larger than in a real run).

storebench's own share ("own") is its worker thread's count minus everything executed inside
its client library (libpq, libmariadb, libsqlite3, and what they call in libc and OpenSSL): the
driver, the workload, the metrics and the back end's wrapper code, per operation. The
once-a-second thread (snapshots, status lines) is in the total, not in "own": its cost is per
second, not per operation. The SQLite row has no peer: it shows the own share with an
in-process database. docs/driver-cost.md has the figures."""
import argparse
import collections
import glob
import os
import re
import subprocess
import tempfile

import peers

SB = "build/storebench"
TABLES, SIZE = 4, 100000
CLIENT_LIBRARIES = ("libpq.so", "libmariadb.so", "libsqlite3.so")


def client_library_share(profile):
    """The inclusive instructions of the calls a callgrind profile records from outside the
    client libraries into them (so their own callees in libc or OpenSSL count as theirs)."""
    names = {}

    def name(value):  # callgrind's name compression: "(id) name" once, then "(id)"
        m = re.match(r"\((\d+)\)(?:\s+(.*))?", value)
        if not m:
            return value
        if m.group(2) is not None:
            names[m.group(1)] = m.group(2)
        return names.get(m.group(1), value)

    def is_client(obj):
        return any(lib in obj for lib in CLIENT_LIBRARIES)

    ob, cob, in_call, total = "", None, False, 0
    with open(profile) as f:
        for line in f:
            if line.startswith("ob="):
                ob, cob = name(line[3:].strip()), None
            elif line.startswith("cob="):
                cob = name(line[4:].strip())
            elif line.startswith("fn="):
                cob = None
            elif line.startswith("calls="):
                in_call = True
            elif in_call and line[:1] in "0123456789+-*":
                fields = line.split()
                # "???" is valgrind's own trampolines (e.g. SQLite's memory hooks), called from
                # inside the library: counting them would count the library twice.
                if is_client(cob or ob) and not is_client(ob) and ob != "???" and len(fields) > 1:
                    total += int(fields[1])
                in_call, cob = False, None
    return total


Count = collections.namedtuple("Count", "total worker client")


def instructions(cmd):
    """Runs cmd under callgrind, one profile per thread; returns the instructions executed (all
    threads), those of storebench's worker thread (the one running RunUnits; 0 for a peer), and
    those of that thread inside the client library."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "cg.out")
        p = subprocess.run(["valgrind", "--tool=callgrind", "--separate-threads=yes",
                            f"--callgrind-out-file={out}", *cmd], capture_output=True, text=True)
        if p.returncode != 0:
            raise SystemExit(f"failed: {' '.join(cmd)}\n{p.stdout[-2000:]}\n{p.stderr[-2000:]}")
        m = re.search(r"Collected : (\d+)", p.stderr)
        worker = client = 0
        for profile in glob.glob(out + "-*"):
            with open(profile) as f:
                text = f.read()
            if "RunUnits" in text:
                worker += int(re.search(r"^summary: (\d+)", text, re.M).group(1))
                client += client_library_share(profile)
        return Count(int(m.group(1)), worker, client)


def per_transaction(make_cmd, n):
    many = instructions(make_cmd(n))
    one = instructions(make_cmd(1))
    return Count(*((a - b) / (n - 1) for a, b in zip(many, one)))


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
    global SB  # pylint: disable=global-statement
    ap = argparse.ArgumentParser()
    ap.add_argument("--point_selects", type=int, default=20000,
                    help="transactions per point-select run")
    ap.add_argument("--read_writes", type=int, default=1000,
                    help="transactions per read_write run")
    ap.add_argument("--storebench", default=SB, help="the storebench binary to measure")
    ap.add_argument("--sqlite", default="/tmp/sb_driver_instructions.db",
                    help="the SQLite file of the SQLite row")
    ap.add_argument("--only", default="", help="run only the rows whose name contains this")
    ap.add_argument("--pg_database", default="sbtest",
                    help="the PostgreSQL database (one per concurrent user of the servers)")
    ap.add_argument("--mysql_database", default="sbtest", help="the MariaDB database")
    a = ap.parse_args()
    SB = a.storebench
    pg = peers.Server("STOREBENCH_PG_URL", a.pg_database)
    my = peers.Server("STOREBENCH_MYSQL_URL", a.mysql_database)
    # The same tables for every program, as in driver_cost.sh.
    sqlite_url = "sqlite://" + os.path.abspath(a.sqlite)
    for url in (pg.url, my.url, sqlite_url):
        peers.timed([SB, "oltp", "load", "--workload", "oltp", "--db", url, "--tables",
                     str(TABLES), "--table_size", str(SIZE), "--force"])
    # Only when its row runs: pgbench's tables are not storebench's, and a later run's load
    # refuses to replace a database holding tables it did not create.
    if a.only in "PostgreSQL pgbench -S -M prepared":
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
        ("SQLite point_select (no peer)", None, storebench(sqlite_url, "point_select"),
         a.point_selects),
    ]
    print("user-space instructions per transaction (callgrind; one connection; start-up "
          "subtracted)")
    print("(sysbench's oltp_point_select, pgbench -S and storebench's point_select: one "
          "statement per transaction)\n")
    print("(own: storebench's worker thread without its client library, per operation)\n")
    print(f"{'pair (peer vs storebench)':36} {'peer':>8} {'storebench':>11} {'ratio':>6} "
          f"{'own':>6}")
    for name, peer, ours, n in pairs:
        if a.only not in name:
            continue
        s = per_transaction(ours, n)
        if peer is None:
            print(f"{name:36} {'-':>8} {s.total:11.0f} {'-':>6} {s.worker - s.client:6.0f}",
                  flush=True)
            continue
        p = per_transaction(peer, n)
        print(f"{name:36} {p.total:8.0f} {s.total:11.0f} {s.total / p.total:6.2f} "
              f"{s.worker - s.client:6.0f}", flush=True)


if __name__ == "__main__":
    main()
