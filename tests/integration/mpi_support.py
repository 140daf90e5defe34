"""What the MPI tests share (test_mpi.py, test_mpi_plan.py): the mpirun on PATH, whether the
binary under test was built with MPI, and running it on N ranks of this machine."""
import os
import shutil
import subprocess
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


class NeedsMpi:
    @classmethod
    def setUpClass(cls):
        if not built_with_mpi():
            raise unittest.SkipTest("storebench built without MPI (or no mpirun)")
