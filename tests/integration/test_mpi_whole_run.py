"""A scaled-out result describes the whole run, not rank 0's part of it (docs/scale-out.md):
`mpirun -np 2 storebench-mpi` on this machine. With the threads divided among the ranks, the
loop model and the workers count every rank's threads; with the instances divided, the restore
of each instance's database (--restore) is recorded, whichever rank restored it. Skipped (exit
77) only when storebench-mpi was not built (no Open MPI) or mpirun is missing."""
import json
import os
import shutil
import unittest

import harness
import mpi_support
from mpi_support import NeedsMpi
from harness import storebench, tmp_path


def fresh_dir(name):
    d = tmp_path(name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    return d


class MpiWholeRunTest(NeedsMpi, unittest.TestCase):
    def test_every_ranks_threads_are_described(self):
        d = fresh_dir("it-mpi-whole-threads")
        plan = os.path.join(d, "plan.toml")
        with open(plan, "w") as f:
            f.write('[run]\nrun_time = "1s"\nwarmup_time = "0s"\n\n[[group]]\nname = "n"\n'
                    'count = 2\nworkload = "noop"\ndb = "null:///n{i}"\n'
                    '[group.options]\nn_threads = 4\n')
        out = os.path.join(d, "r.json")
        r = mpi_support.mpirun("run", "--plan", plan, "--json", out, np=2)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        with open(out) as f:
            doc = json.load(f)
        self.assertEqual([p["threads"] for p in doc["scale_out"]["per_rank"]], [4, 4])
        for inst in doc["instances"]:
            self.assertIn("closed loop: 4 threads", inst["loop_model"])  # not rank 0's 2
            self.assertEqual(inst["workers"]["started"], 4)
            self.assertEqual(len(inst["workers"]["units"]), 4)
        self.assertIn("instance n_1: closed loop: 4 threads", doc["loop_model"])
        self.assertEqual(doc["workers"]["started"], 8)
        self.assertEqual(len(doc["workers"]["units"]), 8)
        # Every thread's units are the instance's (the ranks' shares together).
        for inst in doc["instances"]:
            self.assertEqual(sum(inst["workers"]["units"]), inst["operations"][0]["count"])

    def test_restores_of_every_rank_are_recorded(self):
        d = fresh_dir("it-mpi-whole-restore")
        for i in (1, 2):
            db = f"sqlite://{d}/ds_{i}.db"
            for verb in ("load", "pristine"):
                r = storebench("oltp", verb, "--db", db, "--db_size", "1MB", timeout=300)
                self.assertEqual(r.returncode, 0, r.stderr)
        plan = os.path.join(d, "plan.toml")
        with open(plan, "w") as f:
            f.write(f'[run]\nrun_time = "5m"\nwarmup_time = "0s"\n\n[[group]]\nname = "ds"\n'
                    f'count = 2\ndb = "sqlite://{d}/ds_{{i}}.db"\n[group.options]\n'
                    'db_size = "1MB"\nn_threads = 1\nunits_per_thread = 10\n')
        out = os.path.join(d, "r.json")
        r = mpi_support.mpirun("run", "--plan", plan, "--rank_split=instances", "--restore",
                               "--json", out, np=2, timeout=300)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        with open(out) as f:
            doc = json.load(f)
        per = doc["scale_out"]["per_rank"]
        self.assertEqual([p["instances"] for p in per], [["ds_1"], ["ds_2"]])
        restores = [inst.get("restore") for inst in doc["instances"]]
        self.assertTrue(all(restores), restores)  # ds_2's too, which rank 1 restored
        self.assertAlmostEqual(doc["restore"]["seconds"], sum(x["seconds"] for x in restores),
                               places=6)


if __name__ == "__main__":
    harness.main()
