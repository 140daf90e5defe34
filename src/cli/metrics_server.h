// A minimal HTTP server for the Prometheus endpoint (--metrics_addr): every GET answers with
// the latest exposition text. One thread, one connection at a time; loopback unless the user
// names another address.
#ifndef STOREBENCH_CLI_METRICS_SERVER_H_
#define STOREBENCH_CLI_METRICS_SERVER_H_

#include <atomic>
#include <mutex>
#include <string>
#include <thread>

#include "base/status.h"

namespace sb::cli {

class MetricsServer {
 public:
  MetricsServer() = default;
  ~MetricsServer() { Stop(); }
  MetricsServer(const MetricsServer&) = delete;
  MetricsServer& operator=(const MetricsServer&) = delete;

  // Listens on "HOST:PORT" (or ":PORT"/"PORT" for 127.0.0.1). Port 0 picks a free port.
  Status Start(const std::string& addr);
  // Replaces the text served from now on.
  void Update(std::string text);
  void Stop();
  int port() const { return port_; }

 private:
  void Serve();
  int fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::mutex mu_;
  std::string text_;
  std::thread thread_;
};

}  // namespace sb::cli

#endif  // STOREBENCH_CLI_METRICS_SERVER_H_
