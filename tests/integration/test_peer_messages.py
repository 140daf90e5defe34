"""Messages about peers that fail say what happened in a sentence, with the address and port,
and never echo a password: a Redfish BMC that refuses or never answers (not cpp-httplib's bare
"Connection" / "Read"), a MariaDB server that accepts and stays silent ("timed out after N s",
not "system error: 110"), and a --target carrying user:password@ (also from a DriverConfig
file). No server is needed: a local listener that never answers stands for a silent peer."""
import os
import socket
import threading
import unittest

import harness
from harness import storebench, tmp_path


class SilentListener:
    """Accepts connections on 127.0.0.1 and never sends a byte."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.port = self.sock.getsockname()[1]
        self.held = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.held.append(conn)

    def close(self):
        self.sock.close()
        for c in self.held:
            c.close()


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class PeerMessagesTest(unittest.TestCase):
    def power_log(self, spec):
        return storebench("power", "log", "--duration", "1s", "--power", spec, "--json",
                          tmp_path("peer-messages-power.json"), timeout=60)

    def test_redfish_nothing_listening_names_port_in_a_sentence(self):
        port = free_port()
        r = self.power_log(f"redfish://127.0.0.1:{port}?password_env=HOME&scheme=http")
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn(f"127.0.0.1:{port}", r.stderr)
        self.assertIn("cannot connect", r.stderr)
        self.assertNotRegex(r.stderr, r": (Connection|Read)\s*$")

    def test_redfish_silent_bmc_says_no_answer_within_the_timeout(self):
        silent = SilentListener()
        self.addCleanup(silent.close)
        r = self.power_log(
            f"redfish://127.0.0.1:{silent.port}?password_env=HOME&scheme=http&timeout_ms=500")
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn(f"127.0.0.1:{silent.port}", r.stderr)
        self.assertIn("no answer within 0.5 s", r.stderr)

    def test_silent_mariadb_says_timed_out(self):
        silent = SilentListener()
        self.addCleanup(silent.close)
        r = storebench("oltp", "run", "--workload", "noop", "--db",
                       f"mysql://u@127.0.0.1:{silent.port}/x?connect_timeout=1",
                       "--run_time", "1s", timeout=60)
        self.assertNotEqual(r.returncode, 0, r.stderr)
        self.assertIn("timed out after 1 s", r.stderr)
        self.assertNotIn("system error: 110", r.stderr)

    def test_target_password_is_never_echoed(self):
        secret = "s3cret-pw"
        db = "postgresql://u@127.0.0.1:1/x"
        r = storebench("oltp", "run", "--db", db, "--target", f"u:{secret}@h1;h2",
                       "--run_time", "1s", timeout=60)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertNotIn(secret, r.stderr + r.stdout)
        self.assertIn("password", r.stderr)
        config = tmp_path("peer-messages-DriverConfig.txt")
        with open(config, "w") as f:
            f.write(f"target=u:{secret}@h1\nrun_time=1s\n")
        for database in (db, "sqlite://" + tmp_path("peer-messages.db")):
            r = storebench("oltp", "run", "--db", database, "--config_file", config, timeout=60)
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertNotIn(secret, r.stderr + r.stdout)


if __name__ == "__main__":
    harness.main()
