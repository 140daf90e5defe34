// The scaled-out run this process belongs to, if any (docs/scale-out.md). MPI is process-wide
// state (one MPI_COMM_WORLD per process), so the group is too: Main() starts it when mpirun
// launched the process, and the commands that scale out ask World() for it.
#ifndef STOREBENCH_DIST_WORLD_H_
#define STOREBENCH_DIST_WORLD_H_

#include <memory>

#include "dist/group.h"
#include "dist/transport.h"
#include "storebench/status.h"

namespace sb::dist {

// How a program joins the job mpirun started: storebench-mpi's main() installs the MPI
// transport (dist/mpi/); storebench installs none and never links libmpi, so it installs and
// runs without Open MPI.
struct TransportEntry {
  // Null when the transport cannot start.
  std::unique_ptr<Transport> (*start)(int* argc, char*** argv) = nullptr;
  // `abandon`: a process was lost (see EndWorld).
  void (*stop)(bool abandon) = nullptr;
};
// Called once, before Main(), by a program built with a transport.
void InstallTransport(TransportEntry entry);

// Whether this program has a transport (storebench-mpi).
bool BuiltWithMpi();
// Whether mpirun started this process (its environment says so), in any storebench.
bool LaunchedByMpirun();
// This process's rank and the job's size as mpirun's environment gives them (Open MPI's
// OMPI_COMM_WORLD_RANK / _SIZE, PMIx's PMIX_RANK), or -1 when it does not say.
int RankFromEnvironment();
int SizeFromEnvironment();
// Joins the job mpirun started. A job of one rank makes no group (World() stays null: the run is
// exactly a run without mpirun). FailedPrecondition when MPI cannot start, or when this program
// has no transport and the job has more than one rank (each would run the whole command on its
// own: the message names storebench-mpi).
Status StartWorld(int* argc, char*** argv);
// The group of this process, or null for a process on its own.
Group* World();
// Leaves MPI (MPI_Finalize, or not when a rank was lost: finalizing would wait for it).
void EndWorld();

}  // namespace sb::dist

#endif  // STOREBENCH_DIST_WORLD_H_
