// A TCP connection carrying text lines (PTDaemon's protocol), with timeouts on every step so a
// meter that stops answering costs the sampler at most the timeout, never a hang.
#ifndef STOREBENCH_POWER_LINE_SOCKET_H_
#define STOREBENCH_POWER_LINE_SOCKET_H_

#include <string>

#include "storebench/status.h"

namespace sb::power {

class LineSocket {
 public:
  LineSocket() = default;
  ~LineSocket() { Close(); }
  LineSocket(const LineSocket&) = delete;
  LineSocket& operator=(const LineSocket&) = delete;

  // Connects to host:port within `timeout_ms`. Errors say which address and why.
  Status Connect(const std::string& host, int port, int timeout_ms);
  bool connected() const { return fd_ >= 0; }
  void Close();
  // Sends `line` followed by CRLF.
  Status Send(const std::string& line);
  // The next line without its CR/LF; an error when none arrives within `timeout_ms` or the peer
  // closed the connection.
  Result<std::string> ReadLine(int timeout_ms);

 private:
  int fd_ = -1;
  std::string buffer_;
};

}  // namespace sb::power

#endif  // STOREBENCH_POWER_LINE_SOCKET_H_
