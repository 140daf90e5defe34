"""Shared helpers for integration tests: run the storebench binary on real SQLite files."""
import argparse
import os
import subprocess
import sys
import unittest

ARGS = None


def parse_args():
    """Parses --binary/--source/--tmp (from ctest) and leaves the rest to unittest."""
    global ARGS
    p = argparse.ArgumentParser()
    p.add_argument("--binary", required=True)
    p.add_argument("--source", required=True)
    p.add_argument("--tmp", required=True)
    ARGS, rest = p.parse_known_args()
    os.makedirs(ARGS.tmp, exist_ok=True)
    return [sys.argv[0]] + rest


def tmp_path(name):
    return os.path.join(ARGS.tmp, name)


def storebench(*args, timeout=600, **kw):
    """Runs the binary; returns the CompletedProcess (stdout/stderr as text)."""
    return subprocess.run([ARGS.binary, *args], capture_output=True, text=True,
                          timeout=timeout, **kw)


def main():
    argv = parse_args()
    unittest.main(argv=argv, verbosity=2)


def server_url(env, default, database):
    """The server URL from the environment variable `env` (or `default`) with `database`."""
    import urllib.parse
    u = urllib.parse.urlsplit(os.environ.get(env) or default)
    return urllib.parse.urlunsplit((u.scheme, u.netloc, "/" + database, "", ""))


def require_server(test, url):
    """Skips `test` when nothing listens at url's host:port, or fails it when
    STOREBENCH_REQUIRE_SERVICES=1 (CI)."""
    import socket
    import urllib.parse
    u = urllib.parse.urlsplit(url)
    try:
        with socket.create_connection((u.hostname, u.port), timeout=3):
            return
    except OSError:
        pass
    msg = f"no server at {url} (start one with scripts/services.sh start)"
    if os.environ.get("STOREBENCH_REQUIRE_SERVICES") == "1":
        test.fail(msg)
    test.skipTest(msg)
