"""storebench's OPM on a storebench-loaded S database and on one built the way DVD Store's own
scripts build it (the DVD Store 3 DDL of tests/data/ds3/, loaded from --csv_layout=ds3 files of
the same seed by the database's own client), on PostgreSQL and MariaDB, alternating runs; prints
OPM, rollback rates, the DVD Store-built/storebench-loaded ratio and the load average (see
ds3_foreign_opm.sh)."""
import argparse
import json
import os
import re
import subprocess
import tempfile
import urllib.parse

SB = "build/storebench"
DATA = "tests/data/ds3"
MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
FILES = {
    "CUSTOMERS": ["cust/us_cust.csv", "cust/row_cust.csv"],
    "ORDERS": [f"orders/{m}_orders.csv" for m in MONTHS],
    "ORDERLINES": [f"orders/{m}_orderlines.csv" for m in MONTHS],
    "CUST_HIST": [f"orders/{m}_cust_hist.csv" for m in MONTHS],
    "PRODUCTS": ["prod/prod.csv"],
    "INVENTORY": ["prod/inv.csv"],
    "MEMBERSHIP": ["membership/membership.csv"],
    "REVIEWS": ["reviews/reviews.csv"],
    "REVIEWS_HELPFULNESS": ["reviews/review_helpfulness.csv"],
}


def check(cmd, stdin=None):
    p = subprocess.run(cmd, capture_output=True, text=True, input=stdin)
    if p.returncode != 0:
        raise SystemExit(f"failed: {' '.join(cmd)}\n{p.stdout}\n{p.stderr}")
    return p.stdout


def loadavg():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


class Server:
    def __init__(self, name, url):
        self.name, self.url = name, url

    def at(self, db):
        return re.sub(r"/\w+$", "/" + db, self.url)


class Postgres(Server):
    dialect, schema, indexes = "postgres", "pgsql_schema.sql", "pgsql_indexes.sql"

    def script(self, db, sql):
        check(["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-v", "client_min_messages=warning",
               "-d", self.at(db)], stdin=sql)

    def tables(self, db):
        out = check(["psql", "-X", "-A", "-t", "-d", self.at(db), "-c",
                     "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"])
        return out.split()

    def load_file(self, db, table, path):
        self.script(db, f"\\copy {table} FROM '{path}' WITH (DELIMITER ',')\n")

    def drop(self, db):
        self.script(db, "DROP FUNCTION IF EXISTS RESTOCK_ORDER CASCADE;" + "".join(
            f"DROP TABLE IF EXISTS {t} CASCADE;" for t in self.tables(db)))


class Mariadb(Server):
    dialect, schema, indexes = "mysql", "mysql_schema.sql", "mysql_indexes.sql"

    def client(self, db):
        u = urllib.parse.urlsplit(self.url)
        return ["mariadb", "--no-defaults", "--batch", "--skip-column-names", "--local-infile=1",
                "-h", u.hostname, "-P", str(u.port), "-u", u.username, db]

    def script(self, db, sql):
        check(self.client(db), stdin=sql)

    def tables(self, db):
        return check(self.client(db) + ["-e", "SHOW TABLES"]).split()

    def load_file(self, db, table, path):
        self.script(db, f"LOAD DATA LOCAL INFILE '{path}' INTO TABLE {table} "
                        "FIELDS TERMINATED BY ',';")

    def drop(self, db):
        self.script(db, "SET foreign_key_checks = 0;" + "".join(
            f"DROP TABLE IF EXISTS `{t}`;" for t in self.tables(db)))


def build_ds3(server, db, csv_dir):
    """A DVD Store 3 database from the DS3 DDL and DS3-layout files, as DS3's scripts do."""
    for name in ("drop_procedures.sql",):
        with open(f"src/workload/dvdstore/sql/{server.dialect}/{name}") as f:
            server.script(db, f.read())
    server.drop(db)
    with open(os.path.join(DATA, server.schema)) as f:
        server.script(db, f.read())
    for table, files in FILES.items():
        for rel in files:
            server.load_file(db, table, os.path.join(csv_dir, rel))
    with open(os.path.join(DATA, server.indexes)) as f:
        server.script(db, f.read())
    if server.dialect == "postgres":
        server.script(db, "VACUUM ANALYZE;")
    else:
        server.script(db, "ANALYZE TABLE " + ", ".join(FILES) + ";")


def run(url, secs, threads):
    with tempfile.NamedTemporaryFile(suffix=".json") as f:
        check([SB, "oltp", "run", "--db", url, f"--n_threads={threads}", "--warmup_time=0",
               f"--run_time={secs}s", "--progress=none", "--json", f.name])
        doc = json.load(open(f.name))
    if not all(c["passed"] for c in doc["verify"]):
        raise SystemExit(f"verify failed after the run on {url}: {doc['verify']}")
    fig = doc["figures"]
    return fig["opm"], fig["rollback_rate"], doc["choices"].get("database", "")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=int, default=60)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--threads", type=int, default=8)
    ap.add_argument("--size", default="S")
    ap.add_argument("--storebench_db", default="sbtest_ds3case")
    ap.add_argument("--ds3_db", default="sbtest_ds3compat")
    ap.add_argument("--csv_dir", default="build/ds3-csv-S")
    a = ap.parse_args()
    if not os.path.isfile(os.path.join(a.csv_dir, "reviews/review_helpfulness.csv")):
        check([SB, "oltp", "load", "--db", "sqlite://" + os.path.abspath(a.csv_dir) + ".db",
               f"--db_size={a.size}", "--seed=5", "--force", "--csv_dir", a.csv_dir,
               "--csv_layout=ds3"])
    csv_dir = os.path.abspath(a.csv_dir)
    servers = [Postgres("PostgreSQL", os.environ["STOREBENCH_PG_URL"]),
               Mariadb("MariaDB", os.environ["STOREBENCH_MYSQL_URL"])]
    print(f"{a.threads} threads, {a.seconds} s per run, {a.rounds} round(s), size {a.size}")
    for s in servers:
        check([SB, "oltp", "load", "--db", s.at(a.storebench_db), f"--db_size={a.size}",
               "--seed=5", "--force"])
        build_ds3(s, a.ds3_db, csv_dir)
        res = {"storebench-loaded": [], "DS3-built": []}
        for _ in range(a.rounds):
            for kind, db in (("storebench-loaded", a.storebench_db), ("DS3-built", a.ds3_db)):
                before = loadavg()
                opm, rb, _ = run(s.at(db), a.seconds, a.threads)
                res[kind].append((opm, rb, before, loadavg()))
        for kind, rs in res.items():
            for opm, rb, before, after in rs:
                print(f"{s.name:10} {kind:17} opm {opm:8.0f}  rollbacks {rb:4.1f} %  "
                      f"loadavg before {before} after {after}")
        mean = {k: sum(r[0] for r in v) / len(v) for k, v in res.items()}
        print(f"{s.name:10} DS3-built / storebench-loaded OPM: "
              f"{mean['DS3-built'] / mean['storebench-loaded']:.3f}")


if __name__ == "__main__":
    main()
