"""What the MPI tests share (test_mpi.py, test_mpi_plan.py): the mpirun on PATH, whether the
binary under test was built with MPI, and running it on N ranks of this machine."""
import os
import shutil
import subprocess
import time
import unittest

import harness

MPIRUN = shutil.which("mpirun")


def built_with_mpi():
    if not MPIRUN:
        return False
    out = subprocess.run(["ldd", harness.ARGS.binary], capture_output=True, text=True).stdout
    return "libmpi" in out


def mpirun_cmd(*args, np):
    """storebench with `args` on `np` ranks of this machine (as root, more ranks than cores)."""
    return [MPIRUN, "--oversubscribe", "--allow-run-as-root", "-np", str(np),
            harness.ARGS.binary, *args]


def mpirun(*args, np, timeout=120, env=None):
    return subprocess.run(mpirun_cmd(*args, np=np), capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, **(env or {})})


def start(*args, np, wait_seconds, env=None):
    """storebench with `args` on `np` ranks, returned once rank 0 has printed DS3's "issuing
    Start" (every rank is connected and the run begins), or after `wait_seconds`."""
    p = subprocess.Popen(mpirun_cmd(*args, np=np), stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env={**os.environ, **(env or {})})
    line = ""
    deadline = time.time() + wait_seconds
    while time.time() < deadline and "issuing Start" not in line:
        line = p.stdout.readline()
        if not line:
            break
    return p


class NeedsMpi:
    @classmethod
    def setUpClass(cls):
        if not built_with_mpi():
            raise unittest.SkipTest("storebench built without MPI (or no mpirun)")
