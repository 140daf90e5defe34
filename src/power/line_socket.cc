#include "power/line_socket.h"

#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

namespace sb::power {

namespace {

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

Status LineSocket::Connect(const std::string& host, int port, int timeout_ms) {
  Close();
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* res = nullptr;
  const std::string port_text = std::to_string(port);
  if (int rc = ::getaddrinfo(host.c_str(), port_text.c_str(), &hints, &res); rc != 0) {
    return Status::FailedPrecondition("cannot resolve " + host + ": " + ::gai_strerror(rc));
  }
  std::string last = "no address";
  for (addrinfo* a = res; a != nullptr; a = a->ai_next) {
    const int fd =
        ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, a->ai_protocol);
    if (fd < 0) continue;
    int rc = ::connect(fd, a->ai_addr, a->ai_addrlen);
    if (rc < 0 && errno == EINPROGRESS) {
      pollfd p{fd, POLLOUT, 0};
      rc = ::poll(&p, 1, timeout_ms);
      if (rc == 0) {
        last = "no answer within " + std::to_string(timeout_ms) + " ms";
        ::close(fd);
        continue;
      }
      int err = 0;
      socklen_t len = sizeof err;
      ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len);
      rc = err == 0 ? 0 : -1;
      errno = err;
    }
    if (rc == 0) {
      fd_ = fd;
      break;
    }
    last = std::strerror(errno);
    ::close(fd);
  }
  ::freeaddrinfo(res);
  if (fd_ < 0) {
    return Status::FailedPrecondition("cannot connect to " + host + ":" + port_text + " (" + last +
                                      ")");
  }
  buffer_.clear();
  return Status::Ok();
}

void LineSocket::Close() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  buffer_.clear();
}

Status LineSocket::Send(const std::string& line) {
  if (fd_ < 0) return Status::IoError("not connected");
  const std::string data = line + "\r\n";
  size_t sent = 0;
  while (sent < data.size()) {
    const ssize_t n = ::send(fd_, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EAGAIN) {
      pollfd p{fd_, POLLOUT, 0};
      if (::poll(&p, 1, 2000) <= 0) return Status::IoError("cannot send (peer not reading)");
      continue;
    }
    if (n < 0) return Status::IoError(std::string("cannot send: ") + std::strerror(errno));
    sent += static_cast<size_t>(n);
  }
  return Status::Ok();
}

Result<std::string> LineSocket::ReadLine(int timeout_ms) {
  if (fd_ < 0) return Status::IoError("not connected");
  const int64_t deadline = NowMs() + timeout_ms;
  while (true) {
    const size_t nl = buffer_.find('\n');
    if (nl != std::string::npos) {
      std::string line = buffer_.substr(0, nl);
      buffer_.erase(0, nl + 1);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      return line;
    }
    const int64_t left = deadline - NowMs();
    if (left <= 0) {
      return Status::IoError("no answer within " + std::to_string(timeout_ms) + " ms");
    }
    pollfd p{fd_, POLLIN, 0};
    const int rc = ::poll(&p, 1, static_cast<int>(left));
    if (rc < 0 && errno == EINTR) continue;
    if (rc == 0) continue;
    char buf[4096];
    const ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
    if (n == 0) return Status::IoError("the connection was closed");
    if (n < 0) {
      if (errno == EAGAIN || errno == EINTR) continue;
      return Status::IoError(std::string("cannot receive: ") + std::strerror(errno));
    }
    buffer_.append(buf, static_cast<size_t>(n));
    if (buffer_.size() > (1u << 20)) return Status::IoError("a line longer than 1 MiB");
  }
}

}  // namespace sb::power
