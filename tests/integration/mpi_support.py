"""What the MPI tests share (test_mpi.py, test_mpi_plan.py): the mpirun on PATH, storebench-mpi
(storebench with the MPI transport, built beside the binary under test when Open MPI was
found), and running it on N ranks of this machine."""
import atexit
import os
import shutil
import subprocess
import tempfile
import time
import unittest

import harness

MPIRUN = shutil.which("mpirun")


def mpi_binary():
    """storebench-mpi beside the storebench under test (CMakeLists.txt: STOREBENCH_MPI)."""
    return os.path.join(os.path.dirname(harness.ARGS.binary), "storebench-mpi")


def built_with_mpi():
    return bool(MPIRUN) and os.access(mpi_binary(), os.X_OK)


def mpirun_cmd(*args, np):
    """storebench-mpi with `args` on `np` ranks of this machine (as root, more ranks than
    cores), with a session directory of its own: mpiruns started together (the tests start
    several at once) otherwise race to create /tmp/ompi.<host>.<uid> and one fails at start-up
    ("A call to mkdir was unable to create the desired directory ... File exists")."""
    session = tempfile.mkdtemp(prefix="sb-ompi-")
    atexit.register(shutil.rmtree, session, True)
    return [MPIRUN, "--oversubscribe", "--allow-run-as-root", "--mca", "orte_tmpdir_base",
            session, "-np", str(np), mpi_binary(), *args]


def mpirun(*args, np, timeout=120, env=None):
    return subprocess.run(mpirun_cmd(*args, np=np), capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, **(env or {})})


def start(*args, np, wait_seconds, env=None):
    """storebench-mpi with `args` on `np` ranks, returned once rank 0 has printed DS3's "issuing
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


_BACKGROUND = None


def call_in_background(fn, *args, **kwargs):
    """fn(*args, **kwargs) on a thread; returns its future. An mpirun mostly waits (its ranks'
    start-up, then a run's seconds): a class starts its cases' mpiruns together and each case
    asserts on its own result."""
    global _BACKGROUND
    if _BACKGROUND is None:
        import concurrent.futures
        _BACKGROUND = concurrent.futures.ThreadPoolExecutor(max_workers=8)
    return _BACKGROUND.submit(fn, *args, **kwargs)


class NeedsMpi:
    @classmethod
    def setUpClass(cls):
        if not built_with_mpi():
            raise unittest.SkipTest("no storebench-mpi (built without Open MPI) or no mpirun")
