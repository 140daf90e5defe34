#include "power/cmd_source.h"

#include <sys/wait.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "power/reading_rule.h"

namespace sb::power {

Result<double> FirstNumber(const std::string& text) {
  const auto alpha = [&](size_t k) { return std::isalpha(static_cast<unsigned char>(text[k])); };
  const auto alnum = [&](size_t k) { return std::isalnum(static_cast<unsigned char>(text[k])); };
  for (size_t i = 0; i < text.size(); ++i) {
    const bool digit = std::isdigit(static_cast<unsigned char>(text[i])) != 0;
    const bool dot_digit = text[i] == '.' && i + 1 < text.size() &&
                           std::isdigit(static_cast<unsigned char>(text[i + 1])) != 0;
    if (!digit && !dot_digit) continue;
    // A number glued to a word ("wt310", "PSU-1") is a name, not a reading.
    const bool sign = i > 0 && (text[i - 1] == '-' || text[i - 1] == '+');
    if ((i > 0 && alpha(i - 1) != 0) || (sign && i > 1 && alnum(i - 2) != 0)) {
      while (i < text.size() && alnum(i) != 0) ++i;
      continue;
    }
    // The sign is the reading's ("-5" is minus five watts, which the reading rule refuses).
    const size_t start = sign ? i - 1 : i;
    double w = 0;
    const size_t used = ParseDecimal(std::string_view(text).substr(start), &w);
    const size_t end = start + used;
    if (end < text.size() && (text[end] == 'x' || text[end] == 'X') &&
        text.compare(i, end - i, "0") == 0) {
      return Status::InvalidArgument("the output's first number is hexadecimal ('" +
                                     text.substr(start, 12) + "'), not watts");
    }
    return w;
  }
  return Status::InvalidArgument("the output holds no number");
}

namespace {

std::string ShellQuote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

class CmdSource final : public PowerSource {
 public:
  CmdSource(const PowerSpec& spec, int timeout_ms)
      : spec_text_(spec.text), command_(spec.body), timeout_sec_(Seconds(timeout_ms)) {
    caps_.measures = Measures::kUnknown;
    caps_.note = "the output of a command";
  }

  Status Open() override {
    if (command_.empty()) {
      return Status::InvalidArgument("power source cmd: names no command (cmd:\"...\")");
    }
    auto r = Read();
    if (!r.ok()) {
      return Status::FailedPrecondition("power source " + spec_text_ + ": " + r.status().message());
    }
    return Status::Ok();
  }

  Result<PowerReading> Read() override {
    const std::string cmd =
        "timeout " + timeout_sec_ + " sh -c " + ShellQuote(command_) + " 2>/dev/null";
    std::FILE* p = popen(cmd.c_str(), "r");
    if (p == nullptr) return Status::IoError("cannot run the command");
    std::string text;
    char buf[512];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0 && text.size() < 65536) text.append(buf, n);
    const int status = pclose(p);
    const int rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    if (rc == 124) {
      return Status::IoError("the command did not finish within " + timeout_sec_ + " s");
    }
    auto w = FirstNumber(text);
    if (!w.ok()) {
      return Status::IoError("the command printed no number (exit status " + std::to_string(rc) +
                             ")");
    }
    PowerReading r;
    r.has_watts = true;
    r.watts = *w;
    return r;
  }

  const PowerCapabilities& capabilities() const override { return caps_; }
  const std::string& spec() const override { return spec_text_; }
  std::string Describe() const override { return "command: " + command_; }

 private:
  // Milliseconds as seconds the way timeout(1) reads them and a person writes them: "2", "0.2".
  static std::string Seconds(int ms) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", ms / 1000.0);
    return buf;
  }

  std::string spec_text_;
  std::string command_;
  std::string timeout_sec_;
  PowerCapabilities caps_;
};

}  // namespace

std::unique_ptr<PowerSource> MakeCmdSource(const PowerSpec& spec, int timeout_ms) {
  return std::make_unique<CmdSource>(spec, timeout_ms);
}

}  // namespace sb::power
