#include "dist/mpi/mpi_transport.h"

#include <mpi.h>

#include <list>
#include <string>

#include "dist/world.h"

namespace sb::dist {
namespace {

class MpiTransport : public Transport {
 public:
  MpiTransport() {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
  }
  int rank() const override { return rank_; }
  int size() const override { return size_; }

  void Send(int to, int tag, std::string bytes) override {
    Reap();
    pending_.push_back(Pending{std::move(bytes), MPI_REQUEST_NULL});
    Pending& p = pending_.back();
    // MPI_Isend keeps the buffer until completion: it lives in pending_ until reaped.
    if (MPI_Isend(p.bytes.data(), static_cast<int>(p.bytes.size()), MPI_BYTE, to, tag,
                  MPI_COMM_WORLD, &p.request) != MPI_SUCCESS) {
      pending_.pop_back();
    }
  }

  bool TryReceive(int from, int tag, std::string* out) override {
    Reap();
    int flag = 0;
    MPI_Status status;
    if (MPI_Iprobe(from, tag, MPI_COMM_WORLD, &flag, &status) != MPI_SUCCESS || flag == 0) {
      return false;
    }
    int count = 0;
    MPI_Get_count(&status, MPI_BYTE, &count);
    out->resize(static_cast<size_t>(count));
    // The message has arrived (probed), so this receive completes at once.
    return MPI_Recv(out->data(), count, MPI_BYTE, from, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE) ==
           MPI_SUCCESS;
  }

 private:
  struct Pending {
    std::string bytes;
    MPI_Request request;
  };
  void Reap() {
    for (auto it = pending_.begin(); it != pending_.end();) {
      int done = 0;
      if (MPI_Test(&it->request, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS || done != 0) {
        it = pending_.erase(it);
      } else {
        ++it;
      }
    }
  }
  int rank_ = 0, size_ = 1;
  std::list<Pending> pending_;
};

bool g_started = false;  // MPI is process-wide state; set once by StartMpi

}  // namespace

std::unique_ptr<Transport> StartMpi(int* argc, char*** argv) {
  int provided = 0;
  if (MPI_Init_thread(argc, argv, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS) return nullptr;
  g_started = true;
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  return std::make_unique<MpiTransport>();
}

void StopMpi(bool abandon) {
  if (!g_started) return;
  g_started = false;
  if (!abandon) MPI_Finalize();
}

void InstallMpiTransport() { InstallTransport({.start = StartMpi, .stop = StopMpi}); }

}  // namespace sb::dist
