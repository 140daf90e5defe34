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
        self.clients = []  # storebench's side of every connection
        self.replies = 0  # reads relayed from the server to storebench
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while not self.closing.is_set():
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            self.sockets.append(client)
            self.clients.append(client)
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

    def sent_while_frozen(self):
        """What storebench sent after the freeze (never read, so still queued on the sockets),
        once storebench has exited."""
        sent = b""
        for s in self.clients:
            s.setblocking(False)
            try:
                while True:
                    data = s.recv(65536)
                    if not data:
                        break
                    sent += data
            except OSError:
                pass
        return sent

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


# Server replies relayed once the workers run units: connecting and preparing take some 30
# (PostgreSQL and MariaDB), the noop units of two workers thousands a second.
UNIT_REPLIES = 1000
SERVERS = ("STOREBENCH_PG_URL", "STOREBENCH_MYSQL_URL")
# The statement that releases the database's storebench lock on each server: it would only wait
# out its deadline on a silent server, so a run whose workers stalled does not send it.
UNLOCK = {"STOREBENCH_PG_URL": b"pg_advisory_unlock_all", "STOREBENCH_MYSQL_URL": b"RELEASE_LOCK"}


class FrozenRun(threading.Thread):
    """One run through its own relay, frozen once its workers run units; `signal_after` seconds
    after the freeze it gets one SIGTERM (None: none). The outcome (exit status, stderr, result
    file) or the error that kept it from one is kept for the case that asserts on it."""

    def __init__(self, env, name, run_time, signal_after):
        super().__init__(daemon=True)
        self.env, self.name = env, name
        self.run_time, self.signal_after = run_time, signal_after
        self.error = None

    def run(self):
        relay = None
        proc = None
        try:
            url = harness.server_url(self.env, "storebench_test")
            u = urllib.parse.urlsplit(url)
            relay = FreezingRelay((u.hostname, u.port))
            self.out = tmp_path(f"frozen-{self.env}-{self.name}.json")
            if os.path.exists(self.out):
                os.remove(self.out)
            proc = subprocess.Popen(
                [harness.ARGS.binary, "oltp", "run", "--workload", "noop", "--db",
                 relayed_url(url, relay.port), "--n_threads", "2", "--warmup_time", "0",
                 "--run_time", self.run_time, "--json", self.out],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            # Frozen only once the workers run units: a freeze during connecting is the connect
            # timeout's case, not this one. Polled, not slept: the freeze comes a fraction of a
            # second into the units (a fixed 1.5 s before).
            deadline = time.monotonic() + 30
            while relay.replies < UNIT_REPLIES:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise AssertionError("the run never ran units")
                time.sleep(0.05)
            relay.freeze()
            if self.signal_after is not None:
                time.sleep(self.signal_after)
                proc.send_signal(signal.SIGTERM)  # one signal: the graceful stop, result written
            # A bound for the test only: without the watchdog this run never ends while frozen.
            _, self.stderr = proc.communicate(timeout=120)
            self.returncode = proc.returncode
            self.sent_while_frozen = relay.sent_while_frozen()
        except BaseException as e:  # raised again by the case that asks for this run
            self.error = e
        finally:
            if proc is not None and proc.poll() is None:
                proc.kill()
                proc.wait()
            if relay is not None:
                relay.close()


RUNS = {}


def frozen_run(env, name):
    """The run `name` on the server of `env`. Each case's run is mostly waiting (the end grace of
    a frozen server: 5 s after its last answer, the product's minimum, kept, so a shorter
    --run_time or an earlier signal saves nothing), and a run locks its database, so the first
    case to ask runs them all, two at a time: one on each server (some 11 s for the four; 21 s
    while the lock's release also waited 5 s on the silent server; one after the other 42 s)."""
    if not RUNS:
        for name_, run_time, signal_after in (("end", "4s", None), ("sigterm", "10m", 1)):
            wave = [FrozenRun(e, name_, run_time, signal_after) for e in SERVERS
                    if harness.reachable(harness.server_url(e, "storebench_test"))]
            for r in wave:
                r.start()
            for r in wave:
                r.join()
                RUNS[(r.env, r.name)] = r
    r = RUNS[(env, name)]
    if r.error is not None:
        raise r.error
    return r


class FrozenServerMixin:
    env = None

    def setUp(self):
        harness.require_server(self, harness.server_url(self.env, "storebench_test"))

    def test_run_ends_at_its_end_and_reports_stalled_workers(self):
        run = frozen_run(self.env, "end")
        self.assertEqual(run.returncode, 1, run.stderr)
        self.assertIn("stalled", run.stderr)
        with open(run.out) as f:
            doc = json.load(f)
        self.assertEqual(doc["workers"]["stalled"], 2, doc["workers"])
        self.assertTrue(any("stalled" in w for w in doc["warnings"]), doc["warnings"])

    def test_stop_signal_is_honoured_while_the_server_is_silent(self):
        run = frozen_run(self.env, "sigterm")
        # A stopped run (README, "Exit status").
        self.assertEqual(run.returncode, 130, run.stderr)
        self.assertIn("stalled", run.stderr)
        with open(run.out) as f:
            doc = json.load(f)
        self.assertEqual(doc["workers"]["stalled"], 2, doc["workers"])

    def test_lock_is_released_without_waiting_on_the_silent_server(self):
        # docs/measurement.md#stalled-workers: the lock's connections are closed; the server
        # ends their sessions (and the lock) once it answers again.
        for name in ("end", "sigterm"):
            run = frozen_run(self.env, name)
            self.assertNotIn(UNLOCK[self.env], run.sent_while_frozen, name)


class PostgresFrozenTest(FrozenServerMixin, unittest.TestCase):
    env = "STOREBENCH_PG_URL"


class MariaDbFrozenTest(FrozenServerMixin, unittest.TestCase):
    env = "STOREBENCH_MYSQL_URL"


if __name__ == "__main__":
    harness.main()
