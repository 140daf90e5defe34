"""Stop signals reach what storebench started (exec, ab) and end every command with 130 and
what it gathered written (README, "Exit status"; docs/compare.md): the command's process group
gets the signal, so nothing runs on after storebench; `power log` stopped by a signal exits
130 too."""
import json
import os
import signal
import subprocess
import time
import unittest

import harness
from harness import tmp_path


def wait_for_file(path, proc):
    """Waits until `path` exists (the command has started), bounded by the test's timeout."""
    while not os.path.exists(path):
        if proc.poll() is not None:
            raise AssertionError(f"ended before {path} appeared: {proc.communicate()}")
        time.sleep(0.05)


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie of a process that is not ours is gone in all but name.
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


class ChildSignalsTest(unittest.TestCase):
    def start(self, *args):
        proc = subprocess.Popen([harness.ARGS.binary, *args], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        self.addCleanup(lambda: proc.poll() is None and proc.kill())
        return proc

    def test_exec_forwards_sigterm_to_the_commands_group_and_writes_its_result(self):
        out, pidfile = tmp_path("sig-exec.json"), tmp_path("sig-exec.pid")
        for f in (out, pidfile):
            if os.path.exists(f):
                os.remove(f)
        # A shell that starts a grandchild: the group, not only the child, must be stopped.
        proc = self.start("exec", "--json", out, "--", "/bin/sh", "-c",
                          f"sleep 60 & echo $! > {pidfile}; wait")
        wait_for_file(pidfile, proc)
        time.sleep(0.2)
        with open(pidfile) as f:
            grandchild = int(f.read().strip() or 0)
        proc.send_signal(signal.SIGTERM)
        _, stderr = proc.communicate(timeout=60)
        self.assertEqual(proc.returncode, 130, stderr)
        with open(out) as f:
            doc = json.load(f)
        self.assertTrue(doc["interrupted"])
        self.assertTrue(any("SIGTERM" in w for w in doc["warnings"]), doc["warnings"])
        deadline = time.monotonic() + 10
        while alive(grandchild) and time.monotonic() < deadline:
            time.sleep(0.05)
        self.assertFalse(alive(grandchild), "the command's child runs on after storebench")

    def test_ab_forwards_sigterm_to_the_running_storebench(self):
        d = tmp_path("sig-ab")
        run = "storebench oltp run --workload noop --db null:// --run_time 60s --warmup_time 0"
        proc = self.start("ab", "--a", run, "--b", run, "--rounds", "1", "--dir", d)
        time.sleep(1.5)  # the first run under way
        proc.send_signal(signal.SIGTERM)
        _, stderr = proc.communicate(timeout=60)
        self.assertEqual(proc.returncode, 130, stderr)
        # The run that was stopped wrote what it had gathered.
        with open(os.path.join(d, "a-round1.json")) as f:
            self.assertTrue(json.load(f)["interrupted"])

    def test_power_log_stopped_by_sigint_exits_130_with_its_result(self):
        out = tmp_path("sig-power.json")
        if os.path.exists(out):
            os.remove(out)
        proc = self.start("power", "log", "--power", "cmd:echo 80", "--json", out)
        time.sleep(1.5)
        proc.send_signal(signal.SIGINT)
        _, stderr = proc.communicate(timeout=60)
        self.assertEqual(proc.returncode, 130, stderr)
        with open(out) as f:
            json.load(f)


if __name__ == "__main__":
    harness.main()
