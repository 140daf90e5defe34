"""DVD Store compatibility both ways, on the PostgreSQL and MariaDB servers of scripts/services.sh
(docs/dvdstore.md, "Working with the original DVD Store"):
- a storebench-loaded database has DVD Store 3's table names (upper case on MariaDB), and every
  column's name, type and nullability as DVD Store's DDL (tests/data/ds3/) declares it, less the
  differences docs/dvdstore.md lists;
- DVD Store-style procedures written for the test (tests/data/ds3/: new customer, login, browse,
  purchase) run on it, and their effects pass verify;
- a database created with DVD Store 3's DDL (tests/data/ds3/, written from the documented schema)
  and loaded with --csv_layout=ds3 files by the database's own client runs and verifies: size
  from the row counts, browse words sampled and recorded, the differences in the result, no
  storebench_meta unless --adopt=Y, choices.restock/full_text describing that database; without
  DS3's tables (and PRODUCTS.MEMBERSHIP_ITEM) it asks for --ds2_mode=Y, and runs so;
- a database of an earlier storebench (no schema_version) is refused with the reload command;
- two databases whose names differ only in case (sbtest_ds3case, SBTEST_DS3CASE) load side by
  side on MariaDB.
Databases: sbtest_ds3compat (both servers; on PostgreSQL its schema ds3ddl holds DVD Store's DDL
while the columns are compared), sbtest_ds3case (MariaDB; also that DDL for a moment) and
SBTEST_DS3CASE (MariaDB). Without a reachable server the cases skip, unless
STOREBENCH_REQUIRE_SERVICES=1, when they fail."""
import json
import os
import subprocess
import unittest
import urllib.parse

import harness
from harness import storebench, tmp_path

REQUIRED = os.environ.get("STOREBENCH_REQUIRE_SERVICES") == "1"
DATABASE = "sbtest_ds3compat"
SIZE = "1MB"  # 2000 customers, 1000 products, 1200 orders: seconds to load
DS3_TABLES = ["CATEGORIES", "CUSTOMERS", "CUST_HIST", "INVENTORY", "MEMBERSHIP", "ORDERLINES",
              "ORDERS", "PRODUCTS", "REORDER", "REVIEWS", "REVIEWS_HELPFULNESS"]
CSV_LOAD = None


def data_file(name):
    return os.path.join(harness.ARGS.source, "tests", "data", "ds3", name)


def setUpModule():
    # The CSV files' load (client CPU) runs while the first cases wait on the servers.
    global CSV_LOAD
    CSV_LOAD = harness.storebench_started(
        "oltp", "load", "--db", "sqlite://" + tmp_path("ds3compat-csv.db"), "--db_size=" + SIZE,
        "--seed=5", "--force", "--csv_dir", tmp_path("ds3compat-csv"), "--csv_layout=ds3")


def ds3_csv_dir():
    """DVD Store-layout CSV files of a 1MB database (seed 5), written once per test run (the
    load setUpModule started)."""
    r = CSV_LOAD.result()
    assert r.returncode == 0, r.stdout + r.stderr
    return tmp_path("ds3compat-csv")


def run_client(cmd, stdin=None):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120, input=stdin)
    assert r.returncode == 0, f"{cmd[0]} failed: {r.stderr}"
    return [l.split("\t") for l in r.stdout.splitlines() if l]


# The CSV file of each DVD Store table, as DVD Store's load scripts name them.
def csv_files(table):
    months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    return {
        "CUSTOMERS": ["cust/us_cust.csv", "cust/row_cust.csv"],
        "ORDERS": [f"orders/{m}_orders.csv" for m in months],
        "ORDERLINES": [f"orders/{m}_orderlines.csv" for m in months],
        "CUST_HIST": [f"orders/{m}_cust_hist.csv" for m in months],
        "PRODUCTS": ["prod/prod.csv"],
        "INVENTORY": ["prod/inv.csv"],
        "MEMBERSHIP": ["membership/membership.csv"],
        "REVIEWS": ["reviews/reviews.csv"],
        "REVIEWS_HELPFULNESS": ["reviews/review_helpfulness.csv"],
    }[table]


class Ds3CompatMixin:
    url = None
    dialect = None

    @classmethod
    def setUpClass(cls):
        if not harness.reachable(cls.url):
            msg = harness.no_server_message(cls.url)
            if REQUIRED:
                raise AssertionError("STOREBENCH_REQUIRE_SERVICES=1 but " + msg)
            raise unittest.SkipTest(msg)

    def drop_all(self):
        """Drops storebench's DVD Store objects (its own drop scripts) and the test's DS3 ones."""
        kind = "PROCEDURE" if self.dialect == "mysql" else "FUNCTION"
        # One client session for the drops (a client started per script took most of this).
        drops = "".join(f"DROP {kind} IF EXISTS {p};"
                        for p in ("NEW_CUSTOMER", "LOGIN", "BROWSE_BY_CATEGORY", "PURCHASE"))
        if self.dialect == "postgres":
            drops += "DROP FUNCTION IF EXISTS RESTOCK_ORDER CASCADE;"
        for name in ("drop_procedures.sql", "drop.sql"):
            with open(os.path.join(harness.ARGS.source, "src/workload/dvdstore/sql",
                                   self.dialect, name)) as f:
                drops += "\n" + f.read()
        self.script(drops)
        tables = self.tables()
        if tables:
            self.script(("SET foreign_key_checks = 0;" if self.dialect == "mysql" else "")
                        + "".join(f"DROP TABLE IF EXISTS {self.quote(t)} CASCADE;"
                                  for t in tables))

    def load_storebench(self):
        self.drop_all()  # a DS3-built database of an earlier case would be refused
        r = storebench("oltp", "load", "--db", self.url, "--db_size=" + SIZE, "--seed=3",
                       "--force")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)

    def build_ds3(self):
        """Creates the DVD Store 3 database from the test's DDL and DS3-layout files."""
        self.drop_all()
        with open(data_file(self.schema_file)) as f:
            self.script(f.read())
        csv = ds3_csv_dir()
        # Every file's statement in one client session (one client started per file took most
        # of the build's time): DVD Store's load scripts also load several files per script.
        self.script("".join(self.load_statement(table, os.path.join(csv, name))
                            for table in DS3_TABLES if table not in ("CATEGORIES", "REORDER")
                            for name in csv_files(table)))
        with open(data_file(self.indexes_file)) as f:
            self.script(self.index_session + f.read())

    def run_json(self, *args, name):
        path = tmp_path(f"ds3compat-{self.dialect}-{name}.json")
        # The checks read the choices and need orders, not a long run: 20 orders end it (a
        # few hundredths of a second on a quiet machine; 1 s at most), and every thread
        # connects at once (--ramp_rate) instead of 10 a second.
        r = storebench("oltp", "run", "--db", self.url, "--n_threads=2", "--warmup_time=0",
                       "--run_time=1s", "--units_total=20", "--ramp_rate=1000", "--json", path,
                       *args, timeout=300)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        with open(path) as f:
            return json.load(f)

    def verify(self):
        r = storebench("oltp", "verify", "--db", self.url)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("verify: all checks passed", r.stdout)

    def test_storebench_database(self):
        """DS3's names and types; DS3-style procedures run and their effects verify; without
        schema_version (an earlier storebench) it is refused."""
        self.load_storebench()
        self.assertEqual(sorted(t for t in self.tables() if t != "storebench_meta"),
                         self.expected_tables())
        self.assertEqual(self.column_type("CUSTOMERS", "ZIP"), self.zip_type)
        self.assertIn(self.helpfulness_key, self.columns("REVIEWS_HELPFULNESS"))
        # Every column as DVD Store's DDL declares it (order, type, nullability), less the
        # differences docs/dvdstore.md lists ("The schema").
        ds3 = self.ds3_ddl_columns()
        self.assertEqual(len(ds3), 67)  # the DDL's 67 columns of 11 tables, all read
        self.assertEqual(self.documented(self.column_list()), ds3)

        with open(data_file(self.procedures_file)) as f:
            self.script(f.read())
        before = int(self.query("SELECT QUAN_IN_STOCK FROM INVENTORY WHERE PROD_ID = 500")[0][0])
        sales = int(self.query("SELECT SALES FROM INVENTORY WHERE PROD_ID = 500")[0][0])
        customer, order = self.call_procedures()
        self.assertGreater(customer, 2000)  # a new customer beyond the loaded 2000
        self.assertEqual(self.query(f"SELECT USERNAME FROM CUSTOMERS WHERE CUSTOMERID = {customer}"),
                         [["ds3procuser"]])
        self.assertEqual(self.query(f"SELECT CUSTOMERID FROM ORDERS WHERE ORDERID = {order}"),
                         [[str(customer)]])
        self.assertEqual(self.query(f"SELECT PROD_ID, QUANTITY FROM ORDERLINES "
                                    f"WHERE ORDERID = {order}"), [["500", "2"]])
        self.assertEqual(self.query(f"SELECT PROD_ID FROM CUST_HIST WHERE ORDERID = {order}"),
                         [["500"]])
        now = self.query("SELECT QUAN_IN_STOCK, SALES FROM INVENTORY WHERE PROD_ID = 500")[0]
        if before - 2 >= 3:  # storebench's restock trigger keeps stock >= 3
            self.assertEqual(int(now[0]), before - 2)
        self.assertEqual(int(now[1]), sales + 2)
        self.verify()

        if self.dialect == "postgres":
            # DVD Store's functions return SETOF PRODUCTS: load --force says to drop them
            # and leaves the tables as they were.
            self.script("CREATE FUNCTION ds3_style_browse(c INT) RETURNS SETOF PRODUCTS "
                        "LANGUAGE sql AS 'SELECT * FROM PRODUCTS WHERE CATEGORY = c';")
            rows = self.query("SELECT count(*) FROM CUSTOMERS")
            r = storebench("oltp", "load", "--db", self.url, "--db_size=" + SIZE, "--force")
            self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
            self.assertIn("objects of its own that depend on storebench's", r.stderr)
            self.script("DROP FUNCTION ds3_style_browse(INT);")
            self.assertEqual(self.query("SELECT count(*) FROM CUSTOMERS"), rows)
        self.script("DELETE FROM storebench_meta WHERE " + self.key_column
                    + " = 'schema_version';")
        for args in (["run", "--run_time=1"], ["verify"]):
            r = storebench("oltp", *args, "--db", self.url)
            self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
            self.assertIn("loaded by an earlier storebench", r.stderr)
            self.assertIn("storebench oltp load --force", r.stderr)

    def test_ds3_built_database(self):
        """run and verify on a database built with DS3's DDL from --csv_layout=ds3 files; then,
        without DS3's own tables, as a DS2 database."""
        self.build_ds3()
        doc = self.run_json(name="foreign")
        choices = doc["choices"]
        self.assertTrue(choices["db_size"].startswith("1MB "), choices["db_size"])
        self.assertIn("built by DVD Store's scripts", choices["database"])
        self.assertIn(self.expected_difference, choices["database"])
        self.assertIn("REVIEWS_HELPFULNESS(REVIEW_ID,HELPFULNESS)", choices["database"])
        # The choices say what this database does, not what storebench's schema would.
        self.assertTrue(choices["restock"].startswith(self.expected_restock), choices["restock"])
        self.assertTrue(choices["full_text"].startswith(self.expected_full_text),
                        choices["full_text"])
        self.assertIn("200 titles and actors sampled from PRODUCTS", choices["browse_words"])
        first_title = self.query("SELECT TITLE FROM PRODUCTS WHERE PROD_ID = 1")[0][0]
        self.assertIn("1, " + first_title + ", ", choices["browse_words"])
        self.assertGreater(doc["headline"]["value"], 0)
        self.assertNotIn("storebench_meta", self.tables())
        self.verify()
        self.assertNotIn("storebench_meta", self.tables())

        # DVD Store 2's schema: no MEMBERSHIP, REVIEWS, REVIEWS_HELPFULNESS, MEMBERSHIP_ITEM.
        self.script("DROP TABLE REVIEWS_HELPFULNESS; DROP TABLE REVIEWS; DROP TABLE MEMBERSHIP; "
                    "ALTER TABLE PRODUCTS DROP COLUMN MEMBERSHIP_ITEM;")
        r = storebench("oltp", "run", "--db", self.url, "--run_time=1")
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn("--ds2_mode=Y", r.stderr)
        doc = self.run_json("--ds2_mode=Y", name="ds2")
        self.assertEqual(doc["choices"]["mode"], "DS2")
        self.assertNotIn("storebench_meta", self.tables())

        # --adopt=Y records it; later runs read it as adopted.
        self.run_json("--ds2_mode=Y", "--adopt=Y", name="adopt")
        self.assertIn("storebench_meta", self.tables())
        self.assertEqual(self.query("SELECT value FROM storebench_meta WHERE "
                                    + self.key_column + " = 'origin'"), [["ds3_scripts"]])
        doc = self.run_json("--ds2_mode=Y", name="adopted")
        self.assertIn("built by DVD Store's scripts", doc["choices"]["database"])
        r = storebench("oltp", "run", "--db", self.url, "--run_time=1")
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn("adopted in DVD Store 2 mode", r.stderr)
        r = storebench("oltp", "load", "--db", self.url, "--db_size=" + SIZE, "--force")
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn("does not replace it, even with --force", r.stderr)
        self.assertIn("customers", [t.lower() for t in self.tables()])  # still there


class Ds3CompatMariadbTest(Ds3CompatMixin, unittest.TestCase):
    url = harness.server_url("STOREBENCH_MYSQL_URL", DATABASE)
    dialect = "mysql"
    schema_file = "mysql_schema.sql"
    indexes_file = "mysql_indexes.sql"
    procedures_file = "mysql_procedures.sql"
    zip_type = "int"
    helpfulness_key = "REVIEWS_HELPFULNESS_ID"
    key_column = "`key`"
    expected_difference = "no restock trigger on INVENTORY"
    expected_restock = "none: the database has no restock trigger"
    expected_full_text = "MyISAM FULLTEXT"
    # The same indexes and foreign keys, added without InnoDB checking every loaded row against
    # its parent (the rows are storebench's own, consistent, and each check copied its table:
    # REVIEWS_HELPFULNESS's 409,353 rows took 4.7 of the script's 10 s); with the checks off
    # ALTER TABLE adds a foreign key in place (https://mariadb.com/kb/en/foreign-keys/).
    index_session = "SET foreign_key_checks = 0;\n"

    def client(self, database=DATABASE):
        u = urllib.parse.urlsplit(self.url)
        return ["mariadb", "--no-defaults", "--batch", "--skip-column-names", "--local-infile=1",
                "-h", u.hostname, "-P", str(u.port), "-u", u.username, database]

    def query(self, sql, database=DATABASE):
        return run_client(self.client(database) + ["-e", sql])

    def script(self, sql):
        run_client(self.client(), stdin=sql)

    def quote(self, table):
        return f"`{table}`"

    def tables(self):
        return [r[0] for r in self.query("SHOW TABLES")]

    def expected_tables(self):
        return sorted(DS3_TABLES)

    def columns(self, table):
        return [r[0] for r in self.query(f"SHOW COLUMNS FROM {table}")]

    def column_type(self, table, column):
        return self.query(f"SELECT data_type FROM information_schema.columns WHERE "
                          f"table_schema = DATABASE() AND BINARY table_name = '{table}' AND "
                          f"column_name = '{column}'")[0][0]

    def load_statement(self, table, path):
        """The statement of DVD Store's ds3/mysqlds3/load/*/mysqlds3_load_*.sql for one file."""
        return (f"LOAD DATA LOCAL INFILE '{path}' INTO TABLE {table} "
                "FIELDS TERMINATED BY ',' OPTIONALLY ENCLOSED BY '\"';\n")

    def column_list(self, database=DATABASE):
        return self.query("SELECT LOWER(table_name), LOWER(column_name), column_type, is_nullable "
                          "FROM information_schema.columns WHERE table_schema = DATABASE() AND "
                          "BINARY table_name IN (" + ", ".join(f"'{t}'" for t in DS3_TABLES) +
                          ") ORDER BY LOWER(table_name), ordinal_position", database=database)

    def documented(self, columns):
        return columns  # no column differs on MariaDB/MySQL

    def ds3_ddl_columns(self):
        """The columns of mysql_schema.sql, created in sbtest_ds3case (emptied before and after;
        test_case_pair_databases_load_side_by_side loads it with --force)."""
        scratch = "sbtest_ds3case"
        self.empty_database(scratch)
        with open(data_file(self.schema_file)) as f:
            run_client(self.client(scratch), stdin=f.read())
        try:
            return self.column_list(database=scratch)
        finally:
            self.empty_database(scratch)

    def empty_database(self, database):
        """Drops every table and storebench's procedures (storebench's drop_procedures.sql)."""
        with open(os.path.join(harness.ARGS.source, "src/workload/dvdstore/sql/mysql",
                               "drop_procedures.sql")) as f:
            run_client(self.client(database), stdin=f.read())
        tables = [r[0] for r in self.query("SHOW TABLES", database=database)]
        drops = "".join(f"DROP TABLE IF EXISTS `{t}`;" for t in tables)
        run_client(self.client(database), stdin="SET foreign_key_checks = 0;" + drops)

    def call_procedures(self):
        rows = self.query(
            "CALL NEW_CUSTOMER('FIRST', 'LAST', '1 Dell Way', '', 'CITY', 'TX', 78700, 'US', 1, "
            "'LAST@dell.com', '5125551212', 1, '1234567812345678', '2016/01', 'ds3procuser', "
            "'password', 40, 60000, 'M', @c); SELECT @c;")
        customer = int(rows[-1][0])
        rows = self.query("CALL LOGIN('ds3procuser', 'password', @id); SELECT @id;")
        self.assertEqual(int(rows[-1][0]), customer)
        self.query("CALL BROWSE_BY_CATEGORY(5, 3);")
        rows = self.query(f"CALL PURCHASE({customer}, 500, 2, 20.00, 1.65, 21.65, @o); "
                          "SELECT @o;")
        return customer, int(rows[-1][0])

    def test_case_pair_databases_load_side_by_side(self):
        """sbtest_ds3case loads beside SBTEST_DS3CASE holding DVD Store's own tables and FK_...
        names (the failure #17 reported: InnoDB compares foreign-key names database/name
        without case), then beside a storebench SBTEST_DS3CASE."""
        upper = "SBTEST_DS3CASE"
        self.empty_database(upper)
        for name in (self.schema_file, self.indexes_file):
            with open(data_file(name)) as f:
                run_client(self.client(upper), stdin=f.read())
        for db in ("sbtest_ds3case", upper):
            if db == upper:
                self.empty_database(upper)
            url = harness.server_url("STOREBENCH_MYSQL_URL", db)
            r = storebench("oltp", "load", "--db", url, "--db_size=" + SIZE, "--force")
            if r.returncode != 0 and "tables that storebench did not create" in r.stderr:
                self.fail(r.stderr)
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        for db in ("sbtest_ds3case", "SBTEST_DS3CASE"):
            r = storebench("oltp", "verify", "--db",
                           harness.server_url("STOREBENCH_MYSQL_URL", db))
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            fks = self.query("SELECT count(*) FROM information_schema.referential_constraints "
                             f"WHERE BINARY constraint_schema = '{db}'", database=db)
            self.assertEqual(fks, [["7"]])


class Ds3CompatPostgresTest(Ds3CompatMixin, unittest.TestCase):
    url = harness.server_url("STOREBENCH_PG_URL", DATABASE)
    dialect = "postgres"
    schema_file = "pgsql_schema.sql"
    indexes_file = "pgsql_indexes.sql"
    procedures_file = "pgsql_functions.sql"
    zip_type = "character varying"
    helpfulness_key = "review_helpfulness_id"
    key_column = "key"
    expected_difference = "restock trigger is restock_order"
    expected_restock = "the database's own trigger restock_order (DVD Store's PostgreSQL build)"
    expected_full_text = "GIN index"
    index_session = ""

    def psql(self):
        return ["psql", "-X", "-A", "-t", "-q", "-v", "client_min_messages=warning", "-F", "\t", "-v", "ON_ERROR_STOP=1", "-d",
                self.url]

    def query(self, sql):
        return run_client(self.psql() + ["-c", sql])

    def script(self, sql):
        run_client(self.psql(), stdin=sql)

    def quote(self, table):
        return table

    def tables(self):
        return [r[0] for r in self.query(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")]

    def expected_tables(self):
        # DVD Store's PostgreSQL DDL names its tables unquoted: PostgreSQL folds them.
        return sorted(t.lower() for t in DS3_TABLES)

    def columns(self, table):
        return [r[0] for r in self.query(
            "SELECT column_name FROM information_schema.columns WHERE table_schema = "
            f"current_schema() AND table_name = '{table.lower()}'")]

    def column_type(self, table, column):
        return self.query("SELECT data_type FROM information_schema.columns WHERE table_schema = "
                          f"current_schema() AND table_name = '{table.lower()}' AND "
                          f"column_name = '{column.lower()}'")[0][0]

    def load_statement(self, table, path):
        """As DVD Store's ds3/pgsqlds3/load/*/pgsqlds3_load_*.sql: \\COPY ... WITH DELIMITER ','."""
        return f"\\copy {table} FROM '{path}' WITH (DELIMITER ',')\n"

    def column_list(self, schema="current_schema()"):
        return self.query("SELECT table_name, column_name, data_type, "
                          "coalesce(character_maximum_length::text, ''), "
                          "coalesce(numeric_precision::text, '') || ',' || "
                          "coalesce(numeric_scale::text, ''), is_nullable "
                          f"FROM information_schema.columns WHERE table_schema = {schema} AND "
                          "table_name IN (" + ", ".join(f"'{t.lower()}'" for t in DS3_TABLES) +
                          ") ORDER BY table_name, ordinal_position")

    # Money: DVD Store's plain NUMERIC, storebench's NUMERIC(12,2) (docs/dvdstore.md).
    MONEY = {("orders", "netamount"), ("orders", "tax"), ("orders", "totalamount"),
             ("products", "price")}

    def documented(self, columns):
        return [c[:4] + [","] + c[5:] if (c[0], c[1]) in self.MONEY and c[4] == "12,2" else c
                for c in columns]

    def ds3_ddl_columns(self):
        """The columns of pgsql_schema.sql, created in a schema of their own and dropped."""
        with open(data_file(self.schema_file)) as f:
            self.script("DROP SCHEMA IF EXISTS ds3ddl CASCADE; CREATE SCHEMA ds3ddl; "
                        "SET search_path = ds3ddl;\n" + f.read())
        try:
            return self.column_list(schema="'ds3ddl'")
        finally:
            self.script("DROP SCHEMA ds3ddl CASCADE;")

    def call_procedures(self):
        customer = int(self.query(
            "SELECT NEW_CUSTOMER('FIRST', 'LAST', '1 Dell Way', '', 'CITY', 'TX', '78700', 'US', "
            "1, 'LAST@dell.com', '5125551212', 1, '1234567812345678', '2016/01', 'ds3procuser', "
            "'password', 40, 60000, 'M')")[0][0])
        self.assertEqual(int(self.query("SELECT LOGIN('ds3procuser', 'password')")[0][0]),
                         customer)
        self.query("SELECT * FROM BROWSE_BY_CATEGORY(5, 3)")
        order = int(self.query(f"SELECT PURCHASE({customer}, 500, 2, 20.00, 1.65, 21.65)")[0][0])
        return customer, order


if __name__ == "__main__":
    harness.main()
