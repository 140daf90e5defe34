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


def remove_sqlite(path, suffixes=("", "-wal", "-shm")):
    """Removes a SQLite file of an earlier run and its companions (`path` + each suffix)."""
    for suffix in suffixes:
        if os.path.exists(path + suffix):
            os.remove(path + suffix)


def storebench(*args, timeout=600, **kw):
    """Runs the binary; returns the CompletedProcess (stdout/stderr as text)."""
    return subprocess.run([ARGS.binary, *args], capture_output=True, text=True,
                          timeout=timeout, **kw)


_BACKGROUND = None


def storebench_started(*args, **kw):
    """Starts storebench(*args, **kw) on a thread and returns its future (.result() is the
    CompletedProcess). For commands that mostly wait out fixed seconds (a run of a set length,
    power read once a second): a class starts them together in setUpClass and each case asserts
    on its own, so their seconds overlap instead of adding up."""
    global _BACKGROUND
    if _BACKGROUND is None:
        import concurrent.futures
        _BACKGROUND = concurrent.futures.ThreadPoolExecutor(max_workers=16)
    return _BACKGROUND.submit(storebench, *args, **kw)


# ctest's SKIP_RETURN_CODE for integration tests (tests/CMakeLists.txt): every case skipped.
SKIPPED_EXIT = 77


def main():
    argv = parse_args()
    program = unittest.main(argv=argv, verbosity=2, exit=False)
    result = program.result
    if not result.wasSuccessful():
        sys.exit(1)
    # A file whose every case skipped tested nothing: ctest reports it as skipped, not passed.
    # (A class whose setUpClass skipped adds one skip that is not a test case and runs none.)
    skipped_cases = sum(1 for test, _ in result.skipped if isinstance(test, unittest.TestCase))
    if result.skipped and result.testsRun == skipped_cases:
        sys.exit(SKIPPED_EXIT)
    sys.exit(0)


def env_url(env):
    """The URL in environment variable `env` (set by `eval "$(scripts/services.sh env)"`, as
    `make test` and .ci/run do), or "" when it is not set: tests never guess a server's address,
    so they never use a server they did not start."""
    return os.environ.get(env) or ""


def server_url(env, database):
    """The server URL from the environment variable `env` with `database`, or "" when unset."""
    import urllib.parse
    url = env_url(env)
    if not url:
        return ""
    u = urllib.parse.urlsplit(url)
    return urllib.parse.urlunsplit((u.scheme, u.netloc, "/" + database, "", ""))


def reachable(url):
    """Whether something listens at url's host:port ("" is never reachable)."""
    import socket
    import urllib.parse
    if not url:
        return False
    u = urllib.parse.urlsplit(url)
    try:
        with socket.create_connection((u.hostname, u.port), timeout=3):
            return True
    except OSError:
        return False


def no_server_message(url, env="STOREBENCH_PG_URL / STOREBENCH_MYSQL_URL"):
    if not url:
        return (f"{env} is not set: run `make test`, or start the servers with "
                "scripts/services.sh start and eval \"$(scripts/services.sh env)\"")
    return f"no server at {url} (start one with scripts/services.sh start)"


def require_server(test, url):
    """Skips `test` when nothing listens at url's host:port (or no URL is set), or fails it when
    STOREBENCH_REQUIRE_SERVICES=1 (CI)."""
    if reachable(url):
        return
    msg = no_server_message(url)
    if os.environ.get("STOREBENCH_REQUIRE_SERVICES") == "1":
        test.fail(msg)
    test.skipTest(msg)


def wait_for_text(path, predicate, proc, timeout=120):
    """Waits until the text of file `path` (a process's output, written as it runs) satisfies
    `predicate` and returns it; fails (AssertionError) when `proc` ends first or after `timeout`
    seconds. For tests that act at a point of a run (a fault once work has begun) instead of
    after a sleep."""
    import time
    deadline = time.monotonic() + timeout
    while True:
        with open(path, errors="replace") as fh:
            text = fh.read()
        if predicate(text):
            return text
        if proc.poll() is not None:
            raise AssertionError(f"the process ended (exit {proc.returncode}) first:\n{text}")
        if time.monotonic() > deadline:
            raise AssertionError(f"not seen within {timeout} s:\n{text[-3000:]}")
        time.sleep(0.05)


def progress_has_units(text):
    """Whether a run's --progress=json lines (its stderr) show a second in which units of some
    type completed: the run is working (e.g. the moment for a fault)."""
    import json
    for line in text.splitlines():
        if line.startswith('{"t":'):
            try:
                if any(t["per_sec"] > 0 for t in json.loads(line)["types"].values()):
                    return True
            except (ValueError, KeyError, AttributeError, TypeError):
                pass  # a line still being written
    return False
