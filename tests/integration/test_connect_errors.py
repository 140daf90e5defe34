"""A server storebench cannot connect to is reported as that: a database that does not exist, a
port where nothing listens and a wrong user or password each give exit 2 and one sentence naming
the server (host and port), quoting the server's or the client library's own words and asking
"is the server running? is the password right?" -- never a message about locks, which only a
real lock conflict gives. Passwords are given as the back ends take them, through the
environment (PGPASSWORD, MYSQL_PWD), and never appear in the output. The servers are the
project's (scripts/services.sh env); without them the server cases skip, unless
STOREBENCH_REQUIRE_SERVICES=1. Nothing is written to any database."""
import os
import signal
import socket
import subprocess
import time
import unittest
import urllib.parse

import harness
from harness import storebench, tmp_path

HINT = "is the server running? is the password right?"
WRONG_PASSWORD = "Wrong-Pw-4711"


def free_loopback_port():
    """A loopback port nothing listens on: bound and released (no listen), so a connection there
    is refused."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def with_host(url, netloc=None, database=None, user=None):
    u = urllib.parse.urlsplit(url)
    host_port = u.netloc.split("@")[-1]
    netloc = netloc or ((user or u.username) + "@" + host_port)
    return urllib.parse.urlunsplit((u.scheme, netloc, "/" + (database or u.path[1:]), "", ""))


class ServerConnectErrors:
    env = None       # the services.sh variable with the server's URL
    product = None   # as the message names it
    password_env = None

    def setUp(self):
        self.url = harness.env_url(self.env)
        harness.require_server(self, self.url)
        self.host = urllib.parse.urlsplit(self.url).hostname
        self.port = urllib.parse.urlsplit(self.url).port

    def assertConnectError(self, r, host, port, server_words):
        self.assertEqual(r.returncode, 2, r.stderr)
        lines = r.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, r.stderr)
        self.assertTrue(lines[0].startswith(
            f"storebench: cannot connect to {self.product} at host {host} port {port} ("),
            r.stderr)
        self.assertIn(server_words, r.stderr)
        self.assertIn(HINT, r.stderr)
        self.assertNotIn("lock", r.stderr)
        self.assertNotIn(WRONG_PASSWORD, r.stdout + r.stderr)

    def test_missing_database(self):
        url = with_host(self.url, database="sbtest_no_such_database")
        for command in ("verify", "run"):
            r = storebench("oltp", command, "--db", url, "--run_time=1s", "--warmup_time=0",
                           timeout=60) if command == "run" else \
                storebench("oltp", command, "--db", url, timeout=60)
            self.assertConnectError(r, self.host, self.port, self.missing_database_words)

    def test_nothing_listens(self):
        port = free_loopback_port()
        url = with_host(self.url, netloc=f"storebench@127.0.0.1:{port}")
        r = storebench("oltp", "verify", "--db", url, timeout=60)
        self.assertConnectError(r, "127.0.0.1", port, self.refused_words)
        self.assertIn("no server answers there", r.stderr)

    def test_wrong_user_or_password(self):
        env = dict(os.environ)
        env[self.password_env] = WRONG_PASSWORD
        url = with_host(self.url, user=self.wrong_user)
        r = storebench("oltp", "verify", "--db", url, env=env, timeout=60)
        self.assertConnectError(r, self.host, self.port, self.wrong_login_words)


class PostgresConnectErrorsTest(ServerConnectErrors, unittest.TestCase):
    env = "STOREBENCH_PG_URL"
    product = "PostgreSQL"
    password_env = "PGPASSWORD"
    missing_database_words = 'database "sbtest_no_such_database" does not exist'
    refused_words = "Connection refused"
    # The project's server trusts loopback connections (no password asked): a user that does not
    # exist is refused whatever PGPASSWORD says.
    wrong_user = "sbtest_no_such_user"
    wrong_login_words = 'role "sbtest_no_such_user" does not exist'


class MariadbConnectErrorsTest(ServerConnectErrors, unittest.TestCase):
    env = "STOREBENCH_MYSQL_URL"
    product = "MySQL/MariaDB"
    password_env = "MYSQL_PWD"
    # MariaDB does not tell a missing database from one the user may not use.
    missing_database_words = "to database 'sbtest_no_such_database'"
    refused_words = "Can't connect to server on '127.0.0.1'"
    wrong_user = "storebench"
    wrong_login_words = "Access denied for user 'storebench'@"


class RealLockConflictTest(unittest.TestCase):
    """A database another storebench holds is refused with the lock conflict's sentence, which
    names the holder, and no connection words."""

    def test_second_process_is_told_who_holds_the_database(self):
        db = tmp_path("connect-errors-lock.db")
        harness.remove_sqlite(db, ("", "-wal", "-shm", ".storebench-lock"))
        r = storebench("oltp", "load", "--workload=oltp", "--db", "sqlite://" + db, "--tables=1",
                       "--table_size=100")
        self.assertEqual(r.returncode, 0, r.stderr)
        holder = subprocess.Popen(
            [harness.ARGS.binary, "oltp", "run", "--workload=oltp", "--db", "sqlite://" + db,
             "--tables=1", "--table_size=100", "--threads=1", "--warmup_time=0",
             "--json", tmp_path("connect-errors-lock.json")],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            deadline = time.monotonic() + 60
            while holder.poll() is None and time.monotonic() < deadline:
                try:
                    with open(db + ".storebench-lock") as f:
                        if f"(pid {holder.pid} " in f.read():
                            break
                except FileNotFoundError:
                    pass
                time.sleep(0.1)
            self.assertIsNone(holder.poll(), "the holder ended before the check")
            r = storebench("oltp", "verify", "--workload=oltp", "--db", "sqlite://" + db,
                           timeout=60)
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertIn(f"is in use by storebench oltp run (pid {holder.pid} on host ",
                          r.stderr)
            self.assertIn("wait for it or stop it", r.stderr)
            self.assertNotIn("cannot connect", r.stderr)
        finally:
            holder.send_signal(signal.SIGINT)
            try:
                holder.communicate(timeout=30)
            except subprocess.TimeoutExpired:
                holder.kill()
                holder.communicate()


if __name__ == "__main__":
    harness.main()
