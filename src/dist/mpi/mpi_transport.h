// The MPI side of a scaled-out run (OpenMPI from Debian; docs/scale-out.md): joining the job
// mpirun started, and Transport over MPI_COMM_WORLD with nonblocking sends and probes only, so
// a process that dies never blocks the others (they notice by a deadline; dist/group.h).
#ifndef STOREBENCH_DIST_MPI_MPI_TRANSPORT_H_
#define STOREBENCH_DIST_MPI_MPI_TRANSPORT_H_

#include <memory>

#include "dist/transport.h"

namespace sb::dist {

// Only called when mpirun started the process (dist/world.h): a singleton MPI_Init (storebench
// run by hand) costs half a second and starts an orted helper process (OpenMPI 4.1, measured),
// and a run of one process needs none of it.
// MPI_Init_thread (MPI_THREAD_SERIALIZED: one thread at a time talks) and the transport
// over MPI_COMM_WORLD with errors returned, not fatal. Null when MPI cannot start.
std::unique_ptr<Transport> StartMpi(int* argc, char*** argv);
// MPI_Finalize, when StartMpi succeeded; `abandon` (a process was lost) skips the collective
// finalize, which would wait for it, and leaves the job to mpirun.
void StopMpi(bool abandon);
// Installs StartMpi and StopMpi as the program's transport (dist/world.h): storebench-mpi's
// main() calls it first.
void InstallMpiTransport();

}  // namespace sb::dist

#endif  // STOREBENCH_DIST_MPI_MPI_TRANSPORT_H_
