#include "backend/db/call_interrupt.h"

#include <sys/socket.h>

namespace sb::db {

std::shared_ptr<CallInterrupt> SocketInterrupt(int fd) {
  return std::make_shared<CallInterrupt>([fd] {
    if (fd >= 0) ::shutdown(fd, SHUT_RDWR);
  });
}

}  // namespace sb::db
