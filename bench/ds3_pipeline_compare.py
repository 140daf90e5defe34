"""DVD Store 3's own load pipeline beside storebench's (see ds3_pipeline_compare.sh): for one
size and each server, rounds that alternate (a) DVD Store 3 end to end as its
Install_DVDStore.pl and its pgsqlds3/mysqlds3 create_all scripts run it -- its C data
generators writing the CSV files, then its build scripts run by the server's own client -- and
(b) `storebench oltp load` of the same size, each into a new empty database. Prints each
round's times, the medians and the DS3/storebench ratio. DVD Store's sources are only read:
they are copied into a temporary directory, where the generators are built with gcc and write
their files."""
import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse

SB = os.environ.get("STOREBENCH_BINARY", "build/storebench")

# Install_DVDStore.pl's rows for its base sizes: S is its 10 MB base, M its 1 GB one (storebench's
# --db_size S and M are the same, docs/dvdstore.md "Data").
SIZES = {"S": {"cust": 20000, "ord_month": 1000, "prod": 10000},
         "M": {"cust": 2000000, "ord_month": 100000, "prod": 100000}}
MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
GENERATORS = ["cust/ds3_create_cust", "orders/ds3_create_orders", "orders/ds3_create_inv",
              "prod/ds3_create_prod", "membership/ds3_create_membership",
              "reviews/ds3_create_reviews"]

# pgsqlds3_create_all.sh's steps in its order, (directory, script) under pgsqlds3/, without
# pgsqlds3_create_db.sql (drops and creates the database DS3 and the role ds3 as superuser),
# pgsqlds3_delete_all.sql (empties an existing DS3) and pgsqlds3_create_user.sql (creates the
# role web, once per server): each round starts from a new empty database instead.
PG_STEPS = [("build", "pgsqlds3_create_tbl.sql"), ("build", "pgsqlds3_create_sp.sql"),
            ("load/cust", "pgsqlds3_load_cust.sql"), ("load/orders", "pgsqlds3_load_orders.sql"),
            ("load/orders", "pgsqlds3_load_orderlines.sql"),
            ("load/orders", "pgsqlds3_load_cust_hist.sql"), ("load/prod", "pgsqlds3_load_prod.sql"),
            ("load/prod", "pgsqlds3_load_inv.sql"),
            ("load/membership", "pgsqlds3_load_membership.sql"),
            ("load/reviews", "pgsqlds3_load_reviews.sql"),
            ("load/reviews", "pgsqlds3_load_review_helpfulness.sql"),
            ("build", "pgsqlds3_create_ind.sql"), ("build", "pgsqlds3_create_trig.sql"),
            ("build", "pgsqlds3_reset_seq.sql"), (None, "VACUUM ANALYZE;")]
# mysqlds3_create_all.sh's steps in its order: the database (DROP and CREATE), its indexes and
# foreign keys before the data, the procedures, then LOAD DATA table by table. It runs no
# ANALYZE and no trigger (mysqlds3_create_trigger2.sql says it does not work).
MY_STEPS = [("build", "mysqlds3_create_db.sql"), ("build", "mysqlds3_create_ind.sql"),
            ("build", "mysqlds3_create_sp.sql"), ("load/cust", "mysqlds3_load_cust.sql"),
            ("load/orders", "mysqlds3_load_orders.sql"),
            ("load/orders", "mysqlds3_load_orderlines.sql"),
            ("load/orders", "mysqlds3_load_cust_hist.sql"), ("load/prod", "mysqlds3_load_prod.sql"),
            ("load/prod", "mysqlds3_load_inv.sql"),
            ("load/membership", "mysqlds3_load_member.sql"),
            ("load/reviews", "mysqlds3_load_reviews.sql"),
            ("load/reviews", "mysqlds3_load_review_helpfulness.sql")]
# DS3's index phase on PostgreSQL (its MariaDB script creates the indexes before the data).
PG_INDEX_STEP = "pgsqlds3_create_ind.sql"


def fail(msg):
    raise SystemExit(f"ds3_pipeline_compare: {msg}")


def run(cmd, cwd=None, stdin=None):
    p = subprocess.run(cmd, cwd=cwd, input=stdin, capture_output=True, text=True)
    # psql without ON_ERROR_STOP (as DS3 runs it) exits 0 after a failed statement: look for it.
    if p.returncode != 0 or re.search(r"^(psql:.*)?ERROR", p.stderr, re.M):
        fail(f"failed in {cwd or '.'}: {' '.join(cmd)}\n{p.stdout[-2000:]}\n{p.stderr[-2000:]}")
    return p.stdout


class Server:
    """A server of scripts/services.sh, its client and a database of the script's own."""

    def __init__(self, kind, url, ds3_db, sb_db):
        self.kind, self.ds3_db, self.sb_db = kind, ds3_db, sb_db
        u = urllib.parse.urlsplit(url)
        self.host, self.port, self.user = u.hostname, str(u.port), u.username
        self.admin_db = u.path.lstrip("/")
        self.base = f"{u.scheme}://{u.netloc}"

    def url(self, db):
        return f"{self.base}/{db}"

    def client(self, db=None):
        """The server's client, on database db (MariaDB: none if db is None)."""
        if self.kind == "postgres":
            return ["psql", "-X", "-q", "-h", self.host, "-p", self.port, "-U", self.user,
                    "-d", db]
        return ["mariadb", "--no-defaults", "--local-infile=1", "-h", self.host, "-P", self.port,
                "-u", self.user] + ([db] if db else [])

    def fresh(self, db):
        """Drops the database if it is there and creates it empty (outside the timings)."""
        if self.kind == "postgres":
            run(self.client(self.admin_db) + ["-c", f"DROP DATABASE IF EXISTS {db}"])
            run(self.client(self.admin_db) + ["-c", f"CREATE DATABASE {db}"])
        else:
            run(self.client(self.admin_db) + ["-e", f"DROP DATABASE IF EXISTS `{db}`; "
                                                    f"CREATE DATABASE `{db}`"])

    def drop(self, db):
        if self.kind == "postgres":
            run(self.client(self.admin_db) + ["-c", f"DROP DATABASE IF EXISTS {db}"])
        else:
            run(self.client(self.admin_db) + ["-e", f"DROP DATABASE IF EXISTS `{db}`"])


def ds3_root(path):
    """The ds3/ directory of a DVD Store 3 checkout (the repository's root or ds3/ itself)."""
    for d in (os.path.join(path, "ds3"), path):
        if os.path.isfile(os.path.join(d, "Install_DVDStore.pl")):
            return d
    fail(f"{path}: no Install_DVDStore.pl in it or in its ds3/ (a checkout of "
         "github.com/dvdstore/ds3 is expected)")


def prepare(ds3, work):
    """Copies the generators' sources and both build trees into work (DVD Store's tree is only
    read) and builds the generators there with gcc, as its readme files say."""
    for sub in ("pgsqlds3", "mysqlds3"):
        for part in ("build", "load"):
            shutil.copytree(os.path.join(ds3, sub, part), os.path.join(work, sub, part))
    for gen in GENERATORS:
        src = os.path.join(ds3, "data_files", gen + ".c")
        if not os.path.isfile(src):
            fail(f"{src}: not found")
        d = os.path.join(work, "data_files", os.path.dirname(gen))
        os.makedirs(d, exist_ok=True)
        for f in os.listdir(os.path.dirname(src)):  # the generator and the headers it includes
            if f.endswith((".c", ".h")):
                shutil.copy(os.path.join(os.path.dirname(src), f), d)
        run(["gcc", "-O2", "-w", "-o", os.path.join(work, "data_files", gen),
             os.path.join(d, os.path.basename(src)), "-lm"])


def generate(work, size):
    """Install_DVDStore.pl's generator calls for the size, one after another in its order
    (system type 0: Linux line ends)."""
    n = SIZES[size]
    data = os.path.join(work, "data_files")
    cust = os.path.join(data, "cust")
    run(["./ds3_create_cust", "1", str(n["cust"] // 2), "US", size, "0"], cwd=cust)
    run(["./ds3_create_cust", str(n["cust"] // 2 + 1), str(n["cust"]), "ROW", size, "0"],
        cwd=cust)
    orders = os.path.join(data, "orders")
    for i, month in enumerate(MONTHS):
        run(["./ds3_create_orders", str(n["ord_month"] * i + 1), str(n["ord_month"] * (i + 1)),
             month, size, str(i + 1), "0", str(n["prod"]), str(n["cust"])], cwd=orders)
    run(["./ds3_create_inv", str(n["prod"]), "0"], cwd=orders)
    shutil.copy(os.path.join(orders, "inv.csv"), os.path.join(data, "prod"))
    run(["./ds3_create_prod", str(n["prod"]), "0"], cwd=os.path.join(data, "prod"))
    run(["./ds3_create_membership", str(n["cust"]), "10", "0"],
        cwd=os.path.join(data, "membership"))
    run(["./ds3_create_reviews", str(n["prod"]), "20", str(n["cust"]), "0"],
        cwd=os.path.join(data, "reviews"))


def ds3_build(server, work):
    """The create_all script's steps for the server, each run by its client from the script's
    own directory (the load scripts name the CSV files relative to it). Returns the seconds
    until the index script (tables, procedures and data; on MariaDB, whose script creates the
    indexes before the data, all of it), of the index script, and after it (trigger,
    sequences, VACUUM ANALYZE)."""
    db = server.ds3_db
    if server.kind == "postgres":
        server.fresh(db)
        steps, sub = PG_STEPS, "pgsqlds3"
    else:
        steps, sub = MY_STEPS, "mysqlds3"
    phases = [0.0, 0.0, 0.0]
    phase = 0
    for directory, script in steps:
        if script == PG_INDEX_STEP:
            phase = 1
        start = time.monotonic()
        if directory is None:
            run(server.client(db) + ["-c", script])
        else:
            cwd = os.path.join(work, sub, directory)
            with open(os.path.join(cwd, script), encoding="latin-1") as f:
                sql = f.read()
            if server.kind == "mariadb":  # DS3's scripts name their database DS3
                sql = re.sub(r"\bDS3\b", db, sql)
            # mysqlds3_create_db.sql creates the database: its client connects to none.
            on = None if script == "mysqlds3_create_db.sql" else db
            run(server.client(on), cwd=cwd, stdin=sql)
        phases[phase] += time.monotonic() - start
        if script == PG_INDEX_STEP:
            phase = 2
    return phases


def ds3_round(server, work, size):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    generate(work, size)
    gen = time.monotonic() - t0
    if server.kind == "mariadb":
        server.drop(server.ds3_db)  # its create_db script creates it
    data, index, rest = ds3_build(server, work)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"gen": gen, "data": data, "index": index, "rest": rest,
            "total": gen + data + index + rest, "cpu": cpu}


# storebench's progress lines (stderr) that end its phases, in order.
SB_MARKS = [("data", "load: data in"), ("index", "installing the stored procedures")]


def sb_round(server, size, threads, extra):
    """storebench oltp load into a new empty database; the phases from the time its progress
    lines arrive."""
    db = server.sb_db
    server.fresh(db)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    p = subprocess.Popen([SB, "oltp", "load", "--db", server.url(db), f"--db_size={size}",
                          f"--load_threads={threads}", "--force", *extra],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seen, err = {}, []
    for line in p.stderr:
        err.append(line)
        for name, mark in SB_MARKS:
            if name not in seen and mark in line:
                seen[name] = time.monotonic() - t0
    out = p.stdout.read()
    p.wait()
    total = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        fail(f"storebench oltp load failed ({p.returncode}):\n{out}\n{''.join(err[-20:])}")
    data = seen.get("data", 0.0)
    index = seen.get("index", data) - data
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"gen": 0.0, "data": data, "index": index, "rest": total - data - index,
            "total": total, "cpu": cpu}


def loadavg():
    with open("/proc/loadavg") as f:
        return f.read().split()[0]


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--ds3", help="a checkout of DVD Store 3 (github.com/dvdstore/ds3), read only")
    ap.add_argument("--size", default="S", choices=sorted(SIZES))
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--threads", type=int, default=2, help="storebench's --load_threads")
    ap.add_argument("--sb_args", default="",
                    help="more options for storebench oltp load (e.g. '--index_threads=3')")
    ap.add_argument("--servers", default="postgres,mariadb",
                    help="comma-separated: postgres, mariadb")
    ap.add_argument("--pg_dbs", default="ds3cmp_ds3,ds3cmp_sb",
                    help="PostgreSQL databases for DS3 and storebench (created and dropped)")
    ap.add_argument("--mysql_dbs", default="sbpeer,sbbench",
                    help="MariaDB databases for DS3 and storebench (dropped, created, dropped; "
                         "the test account may use only a fixed list of names)")
    ap.add_argument("--pipelines", default="DS3,storebench",
                    help="which to run: DS3, storebench or both (one round of M of both can "
                         "take longer than one wants to run at once)")
    ap.add_argument("--keep", action="store_true", help="leave the databases loaded at the end")
    a = ap.parse_args()
    if a.rounds < 1:
        fail("--rounds must be at least 1")
    a.pipelines = a.pipelines.split(",")
    if not a.pipelines or not set(a.pipelines) <= {"DS3", "storebench"}:
        fail("--pipelines: DS3, storebench or DS3,storebench")
    if "DS3" in a.pipelines and not a.ds3:
        a.pipelines.remove("DS3")
        if not a.pipelines:
            fail("--pipelines DS3 needs --ds3 DIR")
    servers = []
    for kind in filter(None, a.servers.split(",")):
        if kind not in ("postgres", "mariadb"):
            fail(f"--servers: unknown server '{kind}' (postgres, mariadb)")
        env = "STOREBENCH_PG_URL" if kind == "postgres" else "STOREBENCH_MYSQL_URL"
        if env not in os.environ:
            fail(f"{env} is not set (eval \"$(scripts/services.sh env)\")")
        dbs = (a.pg_dbs if kind == "postgres" else a.mysql_dbs).split(",")
        if len(dbs) != 2 or not all(re.fullmatch(r"\w+", d) for d in dbs):
            fail(f"--{'pg' if kind == 'postgres' else 'mysql'}_dbs: two names expected")
        servers.append(Server(kind, os.environ[env], *dbs))
    work = None
    if a.ds3 and "DS3" in a.pipelines:
        ds3 = ds3_root(a.ds3)
        work = tempfile.mkdtemp(prefix="sb-ds3-pipeline-")
        prepare(ds3, work)
    elif not a.ds3:
        print("DVD Store 3's sources not given (--ds3 DIR): the peer is absent; "
              "storebench's phase times only")
    try:
        for server in servers:
            compare(server, work, a)
    finally:
        if work:
            shutil.rmtree(work, ignore_errors=True)


COLUMNS = ["gen", "data", "index", "rest", "total", "cpu"]


def line(label, name, t, la=""):
    cells = "".join(f" {t[k]:8.1f}" if k != "gen" or name == "DS3" else f" {'':>8}"
                    for k in COLUMNS)
    print(f"{label:6} {name:10}{cells} {la:>8}", flush=True)


def compare(server, work, a):
    print(f"\n{server.kind}, db_size {a.size}, {a.rounds} rounds"
          + (", alternating" if work else " (storebench only)"))
    print(f"{'round':6} {'pipeline':10} {'generate':>8} {'data':>8} {'index':>8} {'rest':>8} "
          f"{'total':>8} {'cpu':>8} {'load avg':>8}")
    runs = {"DS3": [], "storebench": []}
    try:
        for r in range(1, a.rounds + 1):
            # Alternate which goes first, so neither always runs after the other's writes.
            order = ["DS3", "storebench"] if r % 2 else ["storebench", "DS3"]
            for name in order:
                if name not in a.pipelines or (name == "DS3" and not work):
                    continue
                la = loadavg()
                t = ds3_round(server, work, a.size) if name == "DS3" else sb_round(
                    server, a.size, a.threads, a.sb_args.split())
                runs[name].append(t)
                line(str(r), name, t, la)
    finally:
        if not a.keep:
            server.drop(server.sb_db)
            if work:
                server.drop(server.ds3_db)
    for name, rows in runs.items():
        if rows:
            line("median", name, {k: statistics.median(x[k] for x in rows) for k in COLUMNS})
    if runs["DS3"] and runs["storebench"]:
        ratio = (statistics.median(x["total"] for x in runs["DS3"]) /
                 statistics.median(x["total"] for x in runs["storebench"]))
        print(f"ratio DS3/storebench (median totals): {ratio:.2f}")


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        sys.exit(130)
