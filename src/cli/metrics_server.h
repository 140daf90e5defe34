// The Prometheus endpoint (--metrics_addr): every GET answers with the latest exposition text.
// cpp-httplib (Debian libcpp-httplib-dev) serves it from a pool of threads with read and write
// timeouts, so idle or slow clients neither block a scrape nor hold a thread for long;
// loopback unless the user names another address.
#ifndef STOREBENCH_CLI_METRICS_SERVER_H_
#define STOREBENCH_CLI_METRICS_SERVER_H_

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "storebench/status.h"

namespace httplib {
class Server;
}  // namespace httplib

namespace sb::cli {

class MetricsServer {
 public:
  MetricsServer();
  ~MetricsServer();
  MetricsServer(const MetricsServer&) = delete;
  MetricsServer& operator=(const MetricsServer&) = delete;

  // Listens on "HOST:PORT" (or ":PORT"/"PORT" for 127.0.0.1; HOST is an IPv4 address). Port 0
  // picks a free port (see port()).
  Status Start(const std::string& addr);
  // Replaces what is served from now on: `make` builds the text when a request comes, on the
  // request's thread, so the run's controller thread, which calls this every second, never
  // pays for it (tens of milliseconds at a hundred instances). `make` must own what it reads.
  void Update(std::function<std::string()> make);
  // Keeps serving for `nanos` (the run has ended: its last text stays, so a scraper gets the
  // final counts), prints that it does on stderr, and returns early when `stop` becomes true (a
  // stop signal ends it at once). Returns at once when `nanos` <= 0, when `stop` is already true
  // (a run stopped by a signal is not kept), or when not started.
  void Linger(int64_t nanos, const std::atomic<bool>& stop);
  // Stops listening and waits for requests in progress, at most kStopGraceSec: a client that
  // keeps a request open (a header line now and then keeps every read within its timeout)
  // must not hold the run's exit. Past that the server's threads are left to the process's
  // exit, with nothing of this object that they could reach. Idempotent.
  void Stop();
  static constexpr int kStopGraceSec = 1;
  int port() const { return port_; }

 private:
  // What the request threads use, shared with them so that they may outlive this object.
  struct Shared {
    std::mutex mu;
    std::shared_ptr<const std::function<std::string()>> make;  // null: nothing yet
    bool stopped = false;  // listen_after_bind returned: every request thread has ended
    std::condition_variable cv;
  };
  std::unique_ptr<httplib::Server> server_;
  int port_ = 0;
  std::shared_ptr<Shared> shared_ = std::make_shared<Shared>();
  std::thread thread_;
};

}  // namespace sb::cli

#endif  // STOREBENCH_CLI_METRICS_SERVER_H_
