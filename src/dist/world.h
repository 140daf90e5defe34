// The scaled-out run this process belongs to, if any (docs/scale-out.md). MPI is process-wide
// state (one MPI_COMM_WORLD per process), so the group is too: Main() starts it when mpirun
// launched the process, and the commands that scale out ask World() for it.
#ifndef STOREBENCH_DIST_WORLD_H_
#define STOREBENCH_DIST_WORLD_H_

#include "base/status.h"
#include "dist/group.h"

namespace sb::dist {

// Whether this binary was built with MPI (-DSTOREBENCH_MPI=ON and libopenmpi-dev found).
bool BuiltWithMpi();
// Whether mpirun started this process (its environment says so); false without MPI.
bool LaunchedByMpirun();
// Joins the job mpirun started. A job of one rank makes no group (World() stays null: the run is
// exactly a run without mpirun). FailedPrecondition when MPI cannot start.
Status StartWorld(int* argc, char*** argv);
// The group of this process, or null for a process on its own.
Group* World();
// Leaves MPI (MPI_Finalize, or not when a rank was lost: finalizing would wait for it).
void EndWorld();

}  // namespace sb::dist

#endif  // STOREBENCH_DIST_WORLD_H_
