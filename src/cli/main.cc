#include "cli/app.h"
#ifdef STOREBENCH_MPI_PROGRAM
#include "dist/mpi/mpi_transport.h"
#endif

// One main for two programs: storebench, and storebench-mpi, the same program with the MPI
// transport for `mpirun -np K storebench-mpi ...` (docs/scale-out.md). Only storebench-mpi links
// libmpi, so storebench installs and runs without Open MPI.
int main(int argc, char** argv) {
#ifdef STOREBENCH_MPI_PROGRAM
  sb::dist::InstallMpiTransport();
#endif
  return sb::cli::Main(argc, argv);
}
