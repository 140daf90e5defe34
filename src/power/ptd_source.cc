#include "power/ptd_source.h"

#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "power/line_socket.h"
#include "power/reading_rule.h"

namespace sb::power {

Result<double> ParsePtdWatts(const std::string& reply) {
  if (reply.rfind("Error", 0) == 0) {
    return Status::IoError("PTDaemon answered '" + reply + "'");
  }
  const size_t k = reply.find("Watts,");
  if (k != std::string::npos) {
    size_t start = k + 6;
    while (start < reply.size() && reply[start] == ' ') ++start;
    double w = 0;
    // Decimal only (strtod would take "inf", "nan" and "0x20"); the sign and range are the
    // reading rule's to judge (power/reading_rule.h).
    const size_t used = ParseDecimal(std::string_view(reply).substr(start), &w);
    const size_t end = start + used;
    if (used > 0 && (end == reply.size() || reply[end] == ',' || reply[end] == ' ' ||
                     reply[end] == '\r' || reply[end] == '\n')) {
      return w;
    }
  }
  return Status::IoError("PTDaemon's Watts reply '" + reply.substr(0, 120) + "' holds no reading");
}

Result<double> ParsePtdUncertainty(const std::string& reply) {
  static constexpr std::string_view kHead = "Uncertainty,";
  if (reply.rfind(kHead, 0) == 0) {
    size_t start = kHead.size();
    while (start < reply.size() && reply[start] == ' ') ++start;
    double u = 0;
    const size_t used = ParseDecimal(std::string_view(reply).substr(start), &u);
    size_t end = start + used;
    const bool percent = end < reply.size() && reply[end] == '%';
    if (percent) ++end;
    if (used > 0 && u >= 0 && (end == reply.size() || reply[end] == ',' || reply[end] == ' ')) {
      return percent ? u / 100 : u;
    }
  }
  return Status::InvalidArgument("PTDaemon's Uncertainty reply '" + reply.substr(0, 120) +
                                 "' holds no uncertainty");
}

namespace {

class PtdSource final : public PowerSource {
 public:
  explicit PtdSource(const PowerSpec& spec)
      : spec_text_(spec.text),
        host_(spec.host),
        port_(spec.port > 0 ? spec.port : kPtdDefaultPort),
        mark_(spec.Option("mark", "storebench")),
        timeout_ms_(std::atoi(spec.Option("timeout_ms", "900").c_str())) {
    if (timeout_ms_ <= 0) timeout_ms_ = 900;
    caps_.measures = Measures::kWall;
    caps_.marks = true;
    caps_.note = "power analyzer through SPEC PTDaemon";
  }

  Status Open() override {
    if (Status s = Connect(); !s.ok()) {
      return Status::FailedPrecondition("power source " + spec_text_ + ": " + s.message());
    }
    return Status::Ok();
  }

  Result<PowerReading> Read() override {
    if (!sock_.connected()) {
      if (Status s = Connect(); !s.ok()) return s;
    }
    auto reply = Command("Watts");
    if (!reply.ok()) return reply.status();
    auto w = ParsePtdWatts(*reply);
    if (!w.ok()) return w.status();
    PowerReading r;
    r.has_watts = true;
    r.watts = *w;
    return r;
  }

  Status Mark(const std::string& mark) override {
    mark_ = mark;
    if (!sock_.connected()) return Status::Ok();  // the next connection starts with it
    if (auto s = Command("Stop"); !s.ok()) return s.status();
    return Go();
  }

  void Close() override {
    if (!sock_.connected()) return;
    if (auto u = Command("Uncertainty"); u.ok() && u->rfind("Error", 0) != 0) {
      uncertainty_ = *u;
      if (auto fraction = ParsePtdUncertainty(*u); fraction.ok()) caps_.uncertainty = *fraction;
    }
    if (sock_.Send("RL").ok()) {
      auto head = sock_.ReadLine(timeout_ms_);
      // "Last N samples" followed by N lines.
      if (head.ok() && head->rfind("Last ", 0) == 0) {
        const int64_t n = std::strtoll(head->c_str() + 5, nullptr, 10);
        for (int64_t i = 0; i < n && i < 100000; ++i) {
          if (!sock_.ReadLine(timeout_ms_).ok()) break;
        }
        logged_samples_ = n;
      }
    }
    if (auto stop = Command("Stop"); !stop.ok()) stop.status().IgnoreError();
    sock_.Close();
  }

  const PowerCapabilities& capabilities() const override { return caps_; }
  const std::string& spec() const override { return spec_text_; }
  std::string Describe() const override {
    std::string d = "PTDaemon at " + host_ + ":" + std::to_string(port_);
    if (!identity_.empty()) d += " (" + identity_ + ")";
    if (!uncertainty_.empty()) d += "; uncertainty reply '" + uncertainty_ + "'";
    if (logged_samples_ >= 0) d += "; " + std::to_string(logged_samples_) + " samples in its log";
    return d;
  }

 private:
  Status Connect() {
    SB_RETURN_IF_ERROR(sock_.Connect(host_, port_, 3000));
    auto hello = Command("Hello");
    if (!hello.ok()) return hello.status();
    if (hello->rfind("Hello, PTDaemon here", 0) != 0) {
      sock_.Close();
      return Status::FailedPrecondition("the daemon at " + host_ + ":" + std::to_string(port_) +
                                        " is not a PTDaemon (it answered Hello with '" +
                                        hello->substr(0, 80) + "')");
    }
    auto id = Command("Identify");
    if (!id.ok()) return id.status();
    identity_ = *id;
    return Go();
  }

  Status Go() {
    auto go = Command("Go,1000,0," + mark_);
    if (!go.ok()) return go.status();
    if (go->rfind("Error", 0) == 0) {
      return Status::IoError("PTDaemon answered Go with '" + *go + "'");
    }
    return Status::Ok();
  }

  // Sends `line` and returns the reply line. On a timeout or a broken connection the connection
  // is dropped (a late reply must not be read as the next command's).
  Result<std::string> Command(const std::string& line) {
    Status s = sock_.Send(line);
    Result<std::string> reply = s.ok() ? sock_.ReadLine(timeout_ms_) : Result<std::string>(s);
    if (!reply.ok()) {
      sock_.Close();
      return Status::IoError("PTDaemon at " + host_ + ":" + std::to_string(port_) + ", " + line +
                             ": " + reply.status().message());
    }
    return reply;
  }

  std::string spec_text_;
  std::string host_;
  int port_;
  std::string mark_;
  int timeout_ms_;
  PowerCapabilities caps_;
  LineSocket sock_;
  std::string identity_;
  std::string uncertainty_;
  int64_t logged_samples_ = -1;
};

}  // namespace

std::unique_ptr<PowerSource> MakePtdSource(const PowerSpec& spec) {
  return std::make_unique<PtdSource>(spec);
}

}  // namespace sb::power
