"""TPC-C-like figures (see tpcc_compare.sh), on the servers of scripts/services.sh:

1. Load rate: storebench's TPC-C-like load of W warehouses into PostgreSQL beside pgbench -i
   sized to about the same stored bytes, in the same database one after the other: wall time,
   rows/s, stored MB (tables and indexes, measured on the server the same way for both), MB/s,
   client CPU, and the MB/s ratio.
2. Driver cost: storebench's CPU per New-Order with 8 virtual users (HammerDB style, no keying
   or think time) on PostgreSQL and MariaDB, from the result's driver CPU over the measured
   window. No TPC-C driver is packaged in Debian, so this figure has no peer beside it.
3. Terminals (--terminals N, 0 = skip): N keying-and-thinking terminals over 64 connections on
   PostgreSQL: the rate they reach against the specification's N / 20.99 s, the driver's CPU
   share of one core over the measured window and its peak RSS, with client SQL (about 27
   statement round trips per transaction) and with --sql_mode=procedures (three: BEGIN, the
   call, COMMIT). The difference is what the SQL client costs; what remains with procedures
   bounds what the terminals themselves cost.
4. The same N terminals on the null back end (null://, --warehouses N / 10): every statement
   returns at once, so the terminals run at the specification's rate whatever the server can
   do, and the driver's CPU and RSS are its own (the terminals, pacing, inputs and recorders,
   one call per transaction). --parts null runs this part alone (no server needed)."""
import argparse
import json
import os
import re
import subprocess
import tempfile

from peers import Server, timed

SB = "build/storebench"
PGBENCH_MB_PER_SCALE = 15.6  # pgbench -i: ~100 000 accounts per scale unit
TPCC_TABLES = ("item", "warehouse", "district", "customer", "history", "orders", "new_order",
               "order_line", "stock")


def stored_bytes_pg(server, names):
    listed = ",".join(f"'{n}'" for n in names)
    return int(server.sql(
        "SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c JOIN pg_namespace n "
        "ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND c.relkind = 'r' "
        f"AND c.relname IN ({listed})"))


def row(name, rows, cpu, wall, size):
    mb = size / 1e6
    print(f"{name:34} {wall:8.1f} {rows:12d} {rows / wall:10.0f} {mb:9.1f} {mb / wall:8.1f} "
          f"{cpu:8.1f}")
    return mb / wall


def load_compare(pg, warehouses, threads):
    print(f"{'load (' + str(warehouses) + ' warehouses)':34} {'wall s':>8} {'rows':>12} "
          f"{'rows/s':>10} {'stored MB':>9} {'MB/s':>8} {'cpu s':>8}")
    out, cpu, wall = timed([SB, "oltp", "load", "--workload", "tpcc", "--db", pg.url,
                            f"--warehouses={warehouses}", f"--load_threads={threads}", "--force"])
    rows = int(re.search(r": (\d+) rows in", out).group(1))
    size = stored_bytes_pg(pg, TPCC_TABLES)
    sb_rate = row("storebench tpcc -> PostgreSQL", rows, cpu, wall, size)
    scale = max(1, round(size / 1e6 / PGBENCH_MB_PER_SCALE))
    _, cpu, wall = timed(["pgbench", "-h", pg.host, "-p", pg.port, "-U", pg.user, "-i", "-q",
                          "-s", str(scale), pg.db])
    size = stored_bytes_pg(pg, ("pgbench_accounts", "pgbench_branches", "pgbench_tellers",
                                "pgbench_history"))
    peer_rate = row(f"pgbench -i -s {scale}", scale * 100000, cpu, wall, size)
    pg.sql("DROP TABLE pgbench_accounts, pgbench_branches, pgbench_tellers, pgbench_history")
    print(f"{'  MB/s ratio (storebench/pgbench)':34} {sb_rate / peer_rate:8.2f}")


def driver_cost(server, name, warehouses, seconds, load):
    if load:
        timed([SB, "oltp", "load", "--workload", "tpcc", "--db", server.url,
               f"--warehouses={warehouses}", "--force"])
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "r.json")
        timed([SB, "oltp", "run", "--workload", "tpcc", "--db", server.url, "--n_threads=8",
               "--warmup_time=5s", f"--run_time={seconds}s", "--json", out])
        with open(out) as f:
            doc = json.load(f)
    fig = doc["figures"]
    no = fig["n_new_order"]
    cpu = doc["driver"]["cpu_sec"]
    print(f"{name:12} NOPM {fig.get('nopm_dnext', 0):8.0f}  TPM(server) "
          f"{fig.get('tpm_server', 0):8.0f}  New-Orders {no:7.0f}  driver CPU {cpu:6.2f} s  "
          f"{1e6 * cpu / no if no else 0:7.1f} us per New-Order")


def terminals_cost(url, name, terminals, seconds, extra):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "r.json")
        cmd = [SB, "oltp", "run", "--workload", "tpcc", "--db", url, "--keying_and_thinking",
               f"--terminals={terminals}", "--connections=64", "--warmup_time=30s",
               f"--run_time={seconds}s", "--progress=none", "--json", out, *extra]
        # The command as run (a server's URL, which may hold a password, shown as <url>).
        shown = ["<url>" if c == url and not url.startswith("null:") else c for c in cmd]
        print("  " + " ".join(shown).replace(out, "r.json"))
        p = subprocess.run(["/usr/bin/time", "-f", "maxrss_kb=%M", *cmd],
                           capture_output=True, text=True, check=True)
        with open(out) as f:
            doc = json.load(f)
    rss_mb = int(re.search(r"maxrss_kb=(\d+)", p.stderr).group(1)) / 1024
    fig = doc["figures"]
    tps = fig["transactions"] / fig["et"]
    print(f"{terminals} terminals / 64 connections on {name}: "
          f"{tps:.1f} transactions/s "
          f"(specification: {terminals / 20.99:.1f}), efficiency {fig['efficiency_pct']:.1f} %, "
          f"constraints {'met' if fig['response_time_constraints_met'] else 'NOT met'}, driver "
          f"CPU {100 * doc['driver']['cpu_share_of_core']:.1f} % of one core, peak RSS "
          f"{rss_mb:.0f} MB")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--warehouses", type=int, default=10)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seconds", type=int, default=30)
    ap.add_argument("--database", default="sbbench")
    ap.add_argument("--terminals", type=int, default=15000)
    ap.add_argument("--parts", default="load,driver,terminals,null",
                    help="comma-separated parts to run: load, driver, terminals, null")
    a = ap.parse_args()
    parts = set(a.parts.split(","))
    if parts & {"load", "driver", "terminals"}:
        pg = Server("STOREBENCH_PG_URL", a.database)
    if "load" in parts:
        load_compare(pg, a.warehouses, a.threads)
        print()
    if "driver" in parts:
        my = Server("STOREBENCH_MYSQL_URL", a.database)
        print(f"driver CPU at 8 virtual users, {a.warehouses} warehouses, {a.seconds} s measured")
        # PostgreSQL was loaded by the load part; loaded here when that part did not run.
        driver_cost(pg, "PostgreSQL", a.warehouses, a.seconds, load="load" not in parts)
        driver_cost(my, "MariaDB", a.warehouses, a.seconds, load=True)
        print()
    if a.terminals > 0 and "terminals" in parts:
        for mode in ("client", "procedures"):
            terminals_cost(pg.url, f"PostgreSQL ({mode} SQL)", a.terminals, 60,
                           [f"--sql_mode={mode}"])
        print()
    if a.terminals > 0 and "null" in parts:
        # A warehouse's worth (10) of terminals per warehouse, as the specification has them.
        terminals_cost("null://", "the null back end (driver only)", a.terminals, 60,
                       [f"--warehouses={max(1, a.terminals // 10)}"])


if __name__ == "__main__":
    main()
