// libFuzzer target: the database URL parser (db::ParseDbUrl). Beyond memory errors and undefined
// behavior, it checks two promises of the parser: an accepted port is a TCP port, and no secret
// parameter (password, sslpassword, passwd, pwd) is ever accepted.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "storebench/db.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto url = sb::db::ParseDbUrl(text);
  if (!url.ok()) {
    (void)url.status().message();
    return 0;
  }
  if (url->port < 0 || url->port > 65535) std::abort();
  for (const auto& [key, value] : url->params) {
    if (key == "password" || key == "sslpassword" || key == "passwd" || key == "pwd") std::abort();
  }
  return 0;
}
