#include "cli/metrics_server.h"

#include <arpa/inet.h>
#include <httplib.h>

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "base/units.h"

namespace sb::cli {
namespace {

// Threads answering requests: each idle keep-alive or half-open connection holds one until its
// read timeout, so a few dozen idle clients still leave threads for a scrape.
constexpr size_t kThreads = 32;
// Prometheus scrapes in well under a second; a client silent for this long is dropped.
constexpr time_t kTimeoutSec = 2;

}  // namespace

MetricsServer::MetricsServer() = default;

MetricsServer::~MetricsServer() { Stop(); }

Status MetricsServer::Start(const std::string& addr) {
  std::string host = "127.0.0.1";
  std::string port_text = addr;
  const size_t colon = addr.rfind(':');
  if (colon != std::string::npos) {
    if (colon > 0) host = addr.substr(0, colon);
    port_text = addr.substr(colon + 1);
  }
  auto port = ParseInt(port_text, "metrics_addr port");
  if (!port.ok() || *port > 65535) {
    return Status::InvalidArgument("metrics_addr '" + addr + "' is not HOST:PORT");
  }
  in_addr ip{};
  if (inet_pton(AF_INET, host.c_str(), &ip) != 1) {
    return Status::InvalidArgument("metrics_addr '" + addr + "' has no IPv4 address");
  }
  server_ = std::make_unique<httplib::Server>();
  server_->new_task_queue = [] { return new httplib::ThreadPool(kThreads); };
  server_->set_read_timeout(kTimeoutSec, 0);
  server_->set_write_timeout(kTimeoutSec, 0);
  server_->set_keep_alive_timeout(kTimeoutSec);
  // Every path answers with the metrics, as Prometheus' default /metrics and a bare / both do.
  server_->Get(".*", [shared = shared_](const httplib::Request&, httplib::Response& res) {
    std::shared_ptr<const std::function<std::string()>> make;
    {
      std::lock_guard lock(shared->mu);
      make = shared->make;
    }
    res.set_content(make ? (*make)() : std::string(), "text/plain; version=0.0.4");
  });
  if (*port == 0) {
    port_ = server_->bind_to_any_port(host);
  } else {
    port_ = server_->bind_to_port(host, static_cast<int>(*port)) ? static_cast<int>(*port) : -1;
  }
  if (port_ <= 0) {
    server_.reset();
    port_ = 0;
    return Status::InvalidArgument("cannot listen on metrics_addr '" + addr +
                                   "' (in use, or not an address of this host)");
  }
  thread_ = std::thread([server = server_.get(), shared = shared_] {
    server->listen_after_bind();
    std::lock_guard lock(shared->mu);
    shared->stopped = true;
    shared->cv.notify_all();
  });
  return Status::Ok();
}

void MetricsServer::Update(std::function<std::string()> make) {
  auto shared_make = std::make_shared<const std::function<std::string()>>(std::move(make));
  std::lock_guard lock(shared_->mu);
  shared_->make = std::move(shared_make);
}

void MetricsServer::Linger(int64_t nanos, const std::atomic<bool>& stop) {
  if (!server_ || nanos <= 0 || stop.load()) return;
  std::fprintf(stderr,
               "storebench: serving the final metrics on port %d for %s (--metrics_linger)\n",
               port_, FormatDuration(nanos).c_str());
  // The signal handler only sets the flag (cli/signals.cc): polled often enough that a stop
  // feels immediate, rarely enough to cost nothing.
  constexpr auto kPoll = std::chrono::milliseconds(20);
  const auto end = std::chrono::steady_clock::now() + std::chrono::nanoseconds(nanos);
  while (!stop.load() && std::chrono::steady_clock::now() < end) {
    std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(
        kPoll, end - std::chrono::steady_clock::now()));
  }
}

void MetricsServer::Stop() {
  if (!server_) return;
  server_->stop();  // closes the listening socket; the pool then waits for its requests
  bool stopped = false;
  {
    std::unique_lock lock(shared_->mu);
    stopped = shared_->cv.wait_for(lock, std::chrono::seconds(kStopGraceSec),
                                   [&] { return shared_->stopped; });
  }
  if (stopped) {
    thread_.join();
    server_.reset();
    return;
  }
  // A client still holds a request: its thread, the pool and the server are left running
  // until the process exits (they use only the server and Shared, both kept alive).
  thread_.detach();
  (void)server_.release();
}

}  // namespace sb::cli
