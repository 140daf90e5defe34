"""Helpers the side-by-side benchmarks share: running a program with its client CPU time, and
the servers of scripts/services.sh as URLs and as peer command-line arguments."""
import os
import re
import resource
import subprocess
import time


def timed_split(cmd):
    """Runs cmd; returns (stdout, user CPU seconds, system CPU seconds, wall seconds), the CPU
    from the child's rusage."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        raise SystemExit(f"failed: {' '.join(cmd)}\n{p.stdout}\n{p.stderr}")
    return (p.stdout, after.ru_utime - before.ru_utime, after.ru_stime - before.ru_stime, wall)


def timed(cmd):
    """Runs cmd; returns (stdout, client CPU seconds from the child's rusage, wall seconds)."""
    out, user, system, wall = timed_split(cmd)
    return out, user + system, wall


class Server:
    """A server of scripts/services.sh (from STOREBENCH_PG_URL / STOREBENCH_MYSQL_URL) with
    its database replaced by `database`."""

    def __init__(self, env, database):
        self.url = re.sub(r"/\w+$", "/" + database, os.environ[env])
        m = re.match(r"(\w+)://(\w+)@([\d.]+):(\d+)/(\w+)", self.url)
        self.scheme, self.user, self.host, self.port, self.db = m.groups()

    def sysbench_args(self):
        kind = "pgsql" if self.scheme == "postgresql" else "mysql"
        return [f"--db-driver={kind}", f"--{kind}-host={self.host}", f"--{kind}-port={self.port}",
                f"--{kind}-user={self.user}", f"--{kind}-db={self.db}"]

    def sql(self, query):
        """One value from the server's own client (no password: the test servers trust
        loopback)."""
        if self.scheme == "postgresql":
            cmd = ["psql", "-h", self.host, "-p", self.port, "-U", self.user, "-d", self.db,
                   "-Atc", query]
        else:
            cmd = ["mariadb", "-h", self.host, "-P", self.port, "-u", self.user, self.db,
                   "-Nse", query]
        return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.strip()
