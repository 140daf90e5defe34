#include "dist/world.h"

#include <cstdlib>
#include <memory>
#include <string>

namespace sb::dist {
namespace {
// The one process-wide group (see world.h); only StartWorld and EndWorld change it.
std::unique_ptr<Group> g_world;
// The program's transport: set by storebench-mpi's main(), empty in storebench.
TransportEntry g_transport;
constexpr int64_t kDefaultTimeoutNanos = int64_t{10} * 1000 * 1000 * 1000;

int EnvInt(const char* name) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return -1;
  char* end = nullptr;
  const long n = std::strtol(v, &end, 10);
  return *end == '\0' && n >= 0 && n <= 1 << 30 ? static_cast<int>(n) : -1;
}
}  // namespace

void InstallTransport(TransportEntry entry) { g_transport = entry; }

bool BuiltWithMpi() { return g_transport.start != nullptr; }

// Open MPI sets OMPI_COMM_WORLD_SIZE in every process it launches; PMIx launchers PMIX_RANK.
bool LaunchedByMpirun() {
  return std::getenv("OMPI_COMM_WORLD_SIZE") != nullptr || std::getenv("PMIX_RANK") != nullptr;
}

int RankFromEnvironment() {
  const int rank = EnvInt("OMPI_COMM_WORLD_RANK");
  return rank >= 0 ? rank : EnvInt("PMIX_RANK");
}

int SizeFromEnvironment() { return EnvInt("OMPI_COMM_WORLD_SIZE"); }

Status StartWorld(int* argc, char*** argv) {
  if (!BuiltWithMpi()) {
    // One rank is a run of one process, as with storebench-mpi; more would each run the whole
    // command on the same database or target, unaware of the others.
    if (SizeFromEnvironment() == 1) return Status::Ok();
    return Status::FailedPrecondition(
        "this storebench has no MPI support, so mpirun's ranks would each run the whole command "
        "on their own: run storebench-mpi under mpirun (mpirun -np K storebench-mpi ...; "
        "docs/scale-out.md)");
  }
  std::unique_ptr<Transport> t = g_transport.start(argc, argv);
  if (t == nullptr) return Status::FailedPrecondition("MPI_Init failed under mpirun");
  if (t->size() > 1) g_world = std::make_unique<Group>(std::move(t), kDefaultTimeoutNanos);
  return Status::Ok();
}

void EndWorld() {
  const bool abandon = g_world != nullptr && g_world->any_lost();
  g_world.reset();
  if (g_transport.stop != nullptr) g_transport.stop(abandon);
}

Group* World() { return g_world.get(); }

}  // namespace sb::dist
