// A progress line on stderr: rewritten in place on a terminal, a plain log line every so often
// when stderr is a file or a pipe (so CI logs and `2> load.log` stay readable).
#ifndef STOREBENCH_CLI_STATUS_LINE_H_
#define STOREBENCH_CLI_STATUS_LINE_H_

#include <cstdio>
#include <mutex>
#include <string>

namespace sb::cli {

class StatusLine {
 public:
  // `plain_every`: when not a terminal, print one in this many updates (and every forced one).
  StatusLine(std::FILE* out, bool terminal, int plain_every);
  // Shows `line`. `force`: print it even between plain-log intervals (e.g. a final state).
  void Update(const std::string& line, bool force = false);
  // A message on its own line; an in-place line is ended first so the two do not mix.
  void Message(const std::string& text);
  // Ends an in-place line (call before printing anything else to the terminal).
  void End();

 private:
  void EndLocked();
  std::mutex mu_;
  std::FILE* out_;
  bool terminal_;
  int plain_every_;
  int updates_ = 0;
  bool open_ = false;  // an in-place line is on the terminal without its newline
};

}  // namespace sb::cli

#endif  // STOREBENCH_CLI_STATUS_LINE_H_
