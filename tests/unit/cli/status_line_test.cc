#include "cli/status_line.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace sb::cli {
namespace {

// Everything written to a memory stream so far.
class Captured {
 public:
  Captured() : f_(open_memstream(&buf_, &len_)) {}
  ~Captured() {
    std::fclose(f_);
    std::free(buf_);
  }
  Captured(const Captured&) = delete;
  Captured& operator=(const Captured&) = delete;
  std::FILE* file() { return f_; }
  std::string text() {
    std::fflush(f_);
    return std::string(buf_, len_);
  }

 private:
  char* buf_ = nullptr;
  size_t len_ = 0;
  std::FILE* f_;
};

TEST(StatusLineTest, TerminalRewritesInPlaceAndEndsTheLineBeforeAMessage) {
  Captured out;
  StatusLine line(out.file(), /*terminal=*/true, 10);
  line.Update("a 1");
  line.Update("a 2");
  line.Message("building indexes");
  line.Update("b");
  line.End();
  line.End();  // nothing more: the line is already ended
  EXPECT_EQ(out.text(), "\ra 1\x1b[K\ra 2\x1b[K\nbuilding indexes\n\rb\x1b[K\n");
}

TEST(StatusLineTest, LogGetsEveryNthLineAndForcedOnesWithoutControlCharacters) {
  Captured out;
  StatusLine line(out.file(), /*terminal=*/false, 3);
  for (int i = 1; i <= 7; ++i) line.Update("tick " + std::to_string(i));
  line.Update("done", /*force=*/true);
  line.Message("m");
  line.End();
  EXPECT_EQ(out.text(), "tick 3\ntick 6\ndone\nm\n");
}

}  // namespace
}  // namespace sb::cli
