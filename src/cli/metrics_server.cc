#include "cli/metrics_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "base/units.h"

namespace sb::cli {

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
  sockaddr_in sa{};
  sa.sin_family = AF_INET;
  sa.sin_port = htons(static_cast<uint16_t>(*port));
  if (inet_pton(AF_INET, host.c_str(), &sa.sin_addr) != 1) {
    return Status::InvalidArgument("metrics_addr '" + addr + "' has no IPv4 address");
  }
  fd_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd_ < 0) return Status::IoError(std::string("socket: ") + std::strerror(errno));
  const int one = 1;
  setsockopt(fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (bind(fd_, reinterpret_cast<sockaddr*>(&sa), sizeof sa) != 0 || listen(fd_, 16) != 0) {
    const std::string err = std::strerror(errno);
    close(fd_);
    fd_ = -1;
    return Status::InvalidArgument("cannot listen on metrics_addr '" + addr + "': " + err);
  }
  socklen_t len = sizeof sa;
  getsockname(fd_, reinterpret_cast<sockaddr*>(&sa), &len);
  port_ = ntohs(sa.sin_port);
  thread_ = std::thread([this] { Serve(); });
  return Status::Ok();
}

void MetricsServer::Update(std::string text) {
  std::lock_guard lock(mu_);
  text_ = std::move(text);
}

void MetricsServer::Stop() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
  if (fd_ >= 0) close(fd_);
  fd_ = -1;
}

void MetricsServer::Serve() {
  while (!stop_) {
    pollfd p{fd_, POLLIN, 0};
    if (poll(&p, 1, 100) <= 0) continue;  // wake up to notice Stop()
    const int c = accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (c < 0) continue;
    // Read the request head (we answer every request the same way), with a short timeout.
    char buf[2048];
    pollfd cp{c, POLLIN, 0};
    if (poll(&cp, 1, 1000) > 0) (void)!read(c, buf, sizeof buf);
    std::string body;
    {
      std::lock_guard lock(mu_);
      body = text_;
    }
    const std::string head = "HTTP/1.1 200 OK\r\nContent-Type: text/plain; version=0.0.4\r\n"
                             "Content-Length: " + std::to_string(body.size()) +
                             "\r\nConnection: close\r\n\r\n";
    const std::string resp = head + body;
    size_t off = 0;
    while (off < resp.size()) {
      const ssize_t n = write(c, resp.data() + off, resp.size() - off);
      if (n <= 0) break;
      off += static_cast<size_t>(n);
    }
    close(c);
  }
}

}  // namespace sb::cli
