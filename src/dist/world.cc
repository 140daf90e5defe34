#include "dist/world.h"

#include <cstdlib>
#include <memory>

#ifdef STOREBENCH_HAVE_MPI
#include "dist/mpi/mpi_transport.h"
#endif

namespace sb::dist {
namespace {
// The one process-wide group (see world.h); only StartWorld and EndWorld change it.
std::unique_ptr<Group> g_world;
constexpr int64_t kDefaultTimeoutNanos = int64_t{10} * 1000 * 1000 * 1000;
}  // namespace

#ifdef STOREBENCH_HAVE_MPI
bool BuiltWithMpi() { return true; }
// OpenMPI sets OMPI_COMM_WORLD_SIZE in every process it launches; PMIx launchers PMIX_RANK.
bool LaunchedByMpirun() {
  return std::getenv("OMPI_COMM_WORLD_SIZE") != nullptr || std::getenv("PMIX_RANK") != nullptr;
}
Status StartWorld(int* argc, char*** argv) {
  std::unique_ptr<Transport> t = StartMpi(argc, argv);
  if (t == nullptr) return Status::FailedPrecondition("MPI_Init failed under mpirun");
  if (t->size() > 1) g_world = std::make_unique<Group>(std::move(t), kDefaultTimeoutNanos);
  return Status::Ok();
}
void EndWorld() {
  const bool abandon = g_world != nullptr && g_world->any_lost();
  g_world.reset();
  StopMpi(abandon);
}
#else
bool BuiltWithMpi() { return false; }
bool LaunchedByMpirun() { return false; }
Status StartWorld(int*, char***) { return Status::Ok(); }
void EndWorld() {}
#endif

Group* World() { return g_world.get(); }

}  // namespace sb::dist
