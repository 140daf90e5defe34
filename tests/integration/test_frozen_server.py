"""A server that stops answering in the middle of a run (SIGSTOP, a hung host behind a live TCP
stack) must not hang the run or let it pass as a good one: the run ends at its end with its
result, the workers left waiting are reported as stalled (workers.stalled, a warning, exit 1),
and a stop signal is honoured while the server is silent (docs/measurement.md#stalled-workers).

The freeze is a TCP relay between storebench and the shared PostgreSQL / MariaDB servers of
scripts/services.sh that, on request, stops moving bytes in both directions while keeping every
socket open: to the client exactly what a SIGSTOPped server looks like (the kernel still
accepts and acknowledges; nothing comes back). The shared servers themselves are never
stopped."""
import json
import os
import select
import signal
import socket
import subprocess
import threading
import time
import unittest
import urllib.parse

import harness
from harness import tmp_path


class FreezingRelay:
    """Relays 127.0.0.1:<port> to `target` (host, port) until freeze() is called; from then on
    it reads nothing and sends nothing, and accepts new connections without relaying them."""

    def __init__(self, target):
        self.target = target
        self.frozen = threading.Event()
        self.closing = threading.Event()
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(64)
        self.port = self.listener.getsockname()[1]
        self.sockets = []
        self.replies = 0  # reads relayed from the server to storebench
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while not self.closing.is_set():
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            self.sockets.append(client)
            if self.frozen.is_set():
                continue  # held open, never answered
            server = socket.create_connection(self.target)
            self.sockets.append(server)
            threading.Thread(target=self._pump, args=(client, server, server), daemon=True).start()

    def _pump(self, a, b, server):
        peers = {a: b, b: a}
        while not self.closing.is_set():
            if self.frozen.is_set():
                time.sleep(0.05)
                continue
            ready, _, _ = select.select(list(peers), [], [], 0.05)
            for s in ready:
                if self.frozen.is_set():
                    break
                try:
                    data = s.recv(65536)
                except OSError:
                    return
                if not data:
                    return
                if s is server:
                    self.replies += 1
                try:
                    peers[s].sendall(data)
                except OSError:
                    return

    def freeze(self):
        self.frozen.set()

    def close(self):
        self.closing.set()
        self.listener.close()
        for s in self.sockets:
            try:
                s.close()
            except OSError:
                pass


def relayed_url(url, port):
    u = urllib.parse.urlsplit(url)
    netloc = u.netloc.rsplit("@", 1)
    host = f"127.0.0.1:{port}"
    netloc = f"{netloc[0]}@{host}" if len(netloc) == 2 else host
    return urllib.parse.urlunsplit((u.scheme, netloc, u.path, u.query, ""))


class FrozenServerMixin:
    env = None

    def setUp(self):
        self.url = harness.server_url(self.env, "storebench_test")
        harness.require_server(self, self.url)
        u = urllib.parse.urlsplit(self.url)
        self.relay = FreezingRelay((u.hostname, u.port))
        self.addCleanup(self.relay.close)
        self.via = relayed_url(self.url, self.relay.port)

    def start_run(self, name, *extra):
        out = tmp_path(f"frozen-{type(self).__name__}-{name}.json")
        if os.path.exists(out):
            os.remove(out)
        proc = subprocess.Popen(
            [harness.ARGS.binary, "oltp", "run", "--workload", "noop", "--db", self.via,
             "--n_threads", "2", "--warmup_time", "0", "--json", out, *extra],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.addCleanup(lambda: proc.poll() is None and proc.kill())
        return proc, out

    # Server replies relayed once the workers run units: connecting and preparing take some 30
    # (PostgreSQL and MariaDB), the noop units of two workers thousands a second.
    UNIT_REPLIES = 1000

    def wait_for_units(self, proc):
        # Frozen only once the workers run units: a freeze during connecting is the connect
        # timeout's case, not this one. Polled, not slept: the freeze comes a fraction of a
        # second into the units (a fixed 1.5 s before).
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and proc.poll() is None:
            if self.relay.replies >= self.UNIT_REPLIES:
                return
            time.sleep(0.05)
        self.fail("the run never ran units")

    def test_run_ends_at_its_end_and_reports_stalled_workers(self):
        proc, out = self.start_run("end", "--run_time", "4s")
        self.wait_for_units(proc)
        self.relay.freeze()
        # A bound for the test only: without the watchdog this run never ends while frozen.
        stdout, stderr = proc.communicate(timeout=120)
        self.assertEqual(proc.returncode, 1, stderr)
        self.assertIn("stalled", stderr)
        with open(out) as f:
            doc = json.load(f)
        self.assertEqual(doc["workers"]["stalled"], 2, doc["workers"])
        self.assertTrue(any("stalled" in w for w in doc["warnings"]), doc["warnings"])

    def test_stop_signal_is_honoured_while_the_server_is_silent(self):
        proc, out = self.start_run("sigterm", "--run_time", "10m")
        self.wait_for_units(proc)
        self.relay.freeze()
        time.sleep(1)
        proc.send_signal(signal.SIGTERM)  # one signal: the graceful stop, result written
        stdout, stderr = proc.communicate(timeout=120)
        self.assertEqual(proc.returncode, 130, stderr)  # a stopped run (README, "Exit status")
        self.assertIn("stalled", stderr)
        with open(out) as f:
            doc = json.load(f)
        self.assertEqual(doc["workers"]["stalled"], 2, doc["workers"])


class PostgresFrozenTest(FrozenServerMixin, unittest.TestCase):
    env = "STOREBENCH_PG_URL"


class MariaDbFrozenTest(FrozenServerMixin, unittest.TestCase):
    env = "STOREBENCH_MYSQL_URL"


if __name__ == "__main__":
    harness.main()
