"""Bulk load side by side (see load_compare.sh): storebench's DVD Store (or, with --workload soe,
Order Entry) load into PostgreSQL beside pgbench -i, into MariaDB beside sysbench's prepare, each
peer sized to about the same stored bytes, and (DVD Store) into SQLite beside the sqlite3 shell's
.import of the very same rows into the same tables (keys only, no secondary index). Wall time, rows/s, stored MB and MB/s (stored bytes over wall time, measured
on the server the same way for both), client CPU, and the MB/s ratio."""
import argparse
import os
import re
import shutil
import sqlite3
import tempfile

from peers import Server, timed

# STOREBENCH_BINARY: another build to measure (e.g. the one before a change), same peers.
SB = os.environ.get("STOREBENCH_BINARY", "build/storebench")
PGBENCH_MB_PER_SCALE = 15.6       # pgbench -i: ~100 000 accounts per scale unit
SYSBENCH_BYTES_PER_ROW = 240      # sbtest rows with the k index, InnoDB


def stored_bytes(server, tables_like):
    if server.scheme == "postgresql":
        return int(server.sql(
            "SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c JOIN pg_namespace n "
            "ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND c.relkind = 'r' "
            f"AND c.relname LIKE '{tables_like}'"))
    server.sql("SELECT 1")
    return int(server.sql(
        "SELECT sum(data_length + index_length) FROM information_schema.tables "
        f"WHERE table_schema = DATABASE() AND table_name LIKE '{tables_like}'"))


def storebench_load(server, size, threads, workload="dvdstore"):
    sizing = [f"--db_size={size}"] if workload == "dvdstore" else ["--workload", "soe",
                                                                   f"--soe_scale={size}"]
    out, cpu, wall = timed([SB, "oltp", "load", "--db", server.url, *sizing,
                            f"--load_threads={threads}", "--force"])
    rows = int(re.search(r": (\d+) rows in", out).group(1))
    return rows, cpu, wall, stored_bytes(server, "%")


def pgbench_init(server, scale):
    _, cpu, wall = timed(["pgbench", "-h", server.host, "-p", server.port, "-U", server.user,
                          "-i", "-q", "-s", str(scale), server.db])
    return scale * 100000, cpu, wall, stored_bytes(server, "pgbench_%")


def sysbench_prepare(server, tables, rows, threads):
    timed(["sysbench", "oltp_read_write", *server.sysbench_args(), f"--tables={tables}",
           "cleanup"])
    _, cpu, wall = timed(["sysbench", "oltp_read_write", *server.sysbench_args(),
                          f"--tables={tables}", f"--table-size={rows}", f"--threads={threads}",
                          "prepare"])
    for t in range(1, tables + 1):
        server.sql(f"ANALYZE TABLE sbtest{t}")  # fresh data_length for the size
    return tables * rows, cpu, wall, stored_bytes(server, "sbtest%")


def sqlite_size(path):
    return sum(os.path.getsize(path + s) for s in ("", "-wal") if os.path.exists(path + s))


def storebench_sqlite(path, csv_dir, size, threads):
    """storebench's load into a new SQLite file, also writing the rows as CSV (for the peer):
    the CSV files' writing counts against storebench."""
    for s in ("", "-wal", "-shm"):
        if os.path.exists(path + s):
            os.remove(path + s)
    out, cpu, wall = timed([SB, "oltp", "load", "--db", "sqlite://" + path, f"--db_size={size}",
                            f"--load_threads={threads}", "--csv_dir", csv_dir])
    rows = int(re.search(r": (\d+) rows in", out).group(1))
    return rows, cpu, wall, sqlite_size(path)


def sqlite3_import(sb_path, csv_dir, path):
    """The sqlite3 shell's .import of storebench's CSV files into storebench's own table
    definitions (primary keys included), one transaction per file as the shell does."""
    if os.path.exists(path):
        os.remove(path)
    con = sqlite3.connect(sb_path)
    tables = con.execute(
        "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
        "AND name NOT LIKE '%fts%' AND name != 'storebench_meta'").fetchall()
    con.close()
    peer = sqlite3.connect(path)
    for _, sql in tables:
        peer.execute(sql)
    peer.commit()
    peer.close()
    script = "".join(f".import --csv {os.path.join(csv_dir, name + '.csv')} {name}\n"
                     for name, _ in tables if os.path.exists(os.path.join(csv_dir, name + ".csv")))
    script_path = path + ".import.sql"
    with open(script_path, "w") as f:
        f.write(".bail on\n" + script)
    _, cpu, wall = timed(["sqlite3", path, ".read " + script_path])
    con = sqlite3.connect(path)
    rows = sum(con.execute(f"SELECT count(*) FROM {name}").fetchone()[0] for name, _ in tables)
    con.close()
    return rows, cpu, wall, sqlite_size(path)


def row(name, r):
    rows, cpu, wall, size = r
    mb = size / 1e6
    print(f"{name:34} {wall:8.1f} {rows:12d} {rows / wall:10.0f} {mb:9.1f} {mb / wall:8.1f} "
          f"{cpu:8.1f}")
    return mb / wall


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", default="M")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--workload", choices=["dvdstore", "soe"], default="dvdstore",
                    help="soe: --size is the soe_scale (1 = about 1 GB)")
    ap.add_argument("--postgres_only", action="store_true")
    ap.add_argument("--sqlite_dir", default=None,
                    help="where the SQLite files and CSV go (default: a new temporary directory)")
    ap.add_argument("--skip", default="",
                    help="comma-separated targets to leave out: postgres, mariadb, sqlite")
    ap.add_argument("--db_name", default=None,
                    help="storebench's database on each server (default sbbench, sbbench_soe)")
    ap.add_argument("--peer_db_name", default="sbpeer", help="the peers' database on each server")
    ap.add_argument("--free_between", action="store_true",
                    help="drop storebench's tables once measured, before the peer loads (PostgreSQL: "
                         "the public schema of --db_name), for a disk without room for both")
    a = ap.parse_args()
    db = a.db_name or ("sbbench" if a.workload == "dvdstore" else "sbbench_soe")
    peer_db = a.peer_db_name
    pg_sb, pg_peer = Server("STOREBENCH_PG_URL", db), Server("STOREBENCH_PG_URL", peer_db)
    my_sb = Server("STOREBENCH_MYSQL_URL", db)
    my_peer = Server("STOREBENCH_MYSQL_URL", peer_db)
    label = ("DVD Store " if a.workload == "dvdstore" else "Order Entry scale ") + a.size
    print(f"{'load (' + label + ')':34} {'wall s':>8} {'rows':>12} {'rows/s':>10} "
          f"{'stored MB':>9} {'MB/s':>8} {'cpu s':>8}")
    skip = set(filter(None, a.skip.split(",")))
    if a.postgres_only:
        skip |= {"mariadb", "sqlite"}
    if "postgres" not in skip:
        sb = storebench_load(pg_sb, a.size, a.threads, a.workload)
        sb_rate = row("storebench -> PostgreSQL", sb)
        if a.free_between:
            pg_sb.sql("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
        scale = max(1, round(sb[3] / 1e6 / PGBENCH_MB_PER_SCALE))
        peer_rate = row(f"pgbench -i -s {scale}", pgbench_init(pg_peer, scale))
        print(f"{'  PostgreSQL MB/s ratio (sb/peer)':34} {sb_rate / peer_rate:8.2f}")
    if "mariadb" not in skip:
        sb = storebench_load(my_sb, a.size, a.threads, a.workload)
        sb_rate = row("storebench -> MariaDB", sb)
        rows = max(1000, sb[3] // SYSBENCH_BYTES_PER_ROW // 4)
        peer_rate = row(f"sysbench prepare 4 x {rows}",
                        sysbench_prepare(my_peer, 4, rows, a.threads))
        print(f"{'  MariaDB MB/s ratio (sb/peer)':34} {sb_rate / peer_rate:8.2f}")
    if "sqlite" not in skip and a.workload == "dvdstore":
        work = a.sqlite_dir or tempfile.mkdtemp(prefix="sb-load-compare-")
        csv_dir = os.path.join(work, "csv")
        shutil.rmtree(csv_dir, ignore_errors=True)
        sb_path = os.path.join(work, "storebench.db")
        sb = storebench_sqlite(sb_path, csv_dir, a.size, a.threads)
        sb_rate = row("storebench -> SQLite (+ CSV files)", sb)
        peer = sqlite3_import(sb_path, csv_dir, os.path.join(work, "import.db"))
        peer_rate = row("sqlite3 .import (same rows)", peer)
        print(f"{'  SQLite MB/s ratio (sb/peer)':34} {sb_rate / peer_rate:8.2f}")
        print(f"{'  SQLite rows/s ratio (sb/peer)':34} "
              f"{(sb[0] / sb[2]) / (peer[0] / peer[2]):8.2f}")
        if not a.sqlite_dir:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
