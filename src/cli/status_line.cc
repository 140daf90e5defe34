#include "cli/status_line.h"

namespace sb::cli {

StatusLine::StatusLine(std::FILE* out, bool terminal, int plain_every)
    : out_(out), terminal_(terminal), plain_every_(plain_every > 0 ? plain_every : 1) {}

void StatusLine::Update(const std::string& line, bool force) {
  std::lock_guard lock(mu_);
  if (terminal_) {
    // Carriage return, the line, then erase whatever a longer earlier line left behind.
    std::fprintf(out_, "\r%s\x1b[K", line.c_str());
    open_ = true;
  } else if (force || updates_ % plain_every_ == plain_every_ - 1) {
    std::fprintf(out_, "%s\n", line.c_str());
  }
  ++updates_;
  std::fflush(out_);
}

void StatusLine::Message(const std::string& text) {
  std::lock_guard lock(mu_);
  EndLocked();
  std::fprintf(out_, "%s\n", text.c_str());
  std::fflush(out_);
}

void StatusLine::End() {
  std::lock_guard lock(mu_);
  EndLocked();
}

void StatusLine::EndLocked() {
  if (open_) std::fputc('\n', out_);
  open_ = false;
}

}  // namespace sb::cli
