"""The Prometheus endpoint (--metrics_addr) must not hold a run's exit: clients that keep a
request open by sending a header line now and then (each read then stays within the server's
read timeout) are left behind when the run ends, and a stop signal is honoured meanwhile
(src/cli/metrics_server.h, a bounded stop)."""
import re
import signal
import socket
import subprocess
import threading
import time
import unittest

import harness
from harness import tmp_path


class SlowClients:
    """`n` clients that each send a request line and then one header line every 0.5 s until
    closed."""

    def __init__(self, port, n):
        self.done = threading.Event()
        self.socks = []
        for _ in range(n):
            s = self._connect(port)
            if s is None:
                break  # the run has ended and closed its endpoint
            s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")
            self.socks.append(s)
        threading.Thread(target=self._drip, daemon=True).start()

    @staticmethod
    def _connect(port):
        # The server's listen backlog is short (cpp-httplib's 5): connections made faster than
        # it accepts are refused, so each is retried a moment later.
        for _ in range(100):
            try:
                return socket.create_connection(("127.0.0.1", port), timeout=10)
            except ConnectionRefusedError:
                time.sleep(0.05)
        return None

    def _drip(self):
        i = 0
        while not self.done.wait(0.5):
            i += 1
            for s in self.socks:
                try:
                    s.sendall(b"X-Slow-%d: y\r\n" % i)
                except OSError:
                    pass

    def close(self):
        self.done.set()
        for s in self.socks:
            s.close()


class MetricsSlowClientsTest(unittest.TestCase):
    def run_with_slow_clients(self, name, n, run_time, stop=None):
        proc = subprocess.Popen(
            [harness.ARGS.binary, "oltp", "run", "--workload", "noop", "--db", "null://",
             "--n_threads", "1", "--warmup_time", "0", "--run_time", run_time,
             "--metrics_addr", "127.0.0.1:0", "--metrics_linger", "0",
             "--json", tmp_path(f"slow-metrics-{name}.json")],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.addCleanup(lambda: proc.poll() is None and proc.kill())
        port = None
        while port is None:
            line = proc.stderr.readline()
            self.assertTrue(line, "the run ended before serving metrics")
            m = re.search(r"metrics on port (\d+)", line)
            port = int(m.group(1)) if m else None
        clients = SlowClients(port, n)
        self.addCleanup(clients.close)
        self.assertTrue(clients.socks, "no client could connect")
        if stop is not None:
            proc.send_signal(stop)
        # The clients keep sending until this test closes them: a run that waits for them
        # never ends, and the bound below fails the test. No linger (its default is 5 s): the
        # endpoint stops with the run, with the clients still connected.
        _, stderr = proc.communicate(timeout=120)
        return proc.returncode, stderr

    def test_run_ends_beside_a_slow_client(self):
        rc, stderr = self.run_with_slow_clients("one", 1, "2s")
        self.assertEqual(rc, 0, stderr)

    def test_run_ends_beside_many_slow_clients(self):
        rc, stderr = self.run_with_slow_clients("many", 20, "4s")
        self.assertEqual(rc, 0, stderr)

    def test_sigterm_is_honoured_beside_slow_clients(self):
        rc, stderr = self.run_with_slow_clients("sigterm", 5, "10m", stop=signal.SIGTERM)
        self.assertEqual(rc, 130, stderr)


if __name__ == "__main__":
    harness.main()
