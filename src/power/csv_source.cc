#include "power/csv_source.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <utility>

#include "base/input_file.h"
#include "base/limits.h"
#include "power/reading_rule.h"

namespace sb::power {

namespace {

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string Trim(const std::string& s) {
  size_t a = 0, b = s.size();
  while (a < b && (std::isspace(static_cast<unsigned char>(s[a])) != 0 || s[a] == '"')) ++a;
  while (b > a && (std::isspace(static_cast<unsigned char>(s[b - 1])) != 0 || s[b - 1] == '"')) {
    --b;
  }
  return s.substr(a, b - a);
}

std::vector<std::string> Split(const std::string& line, char d) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : line) {
    if (c == d) {
      out.push_back(Trim(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(Trim(cur));
  return out;
}

// Reads `n` digits at `*p`.
bool Digits(const char** p, int n, int* out) {
  int v = 0;
  for (int i = 0; i < n; ++i) {
    if (std::isdigit(static_cast<unsigned char>((*p)[i])) == 0) return false;
    v = v * 10 + ((*p)[i] - '0');
  }
  *p += n;
  *out = v;
  return true;
}

}  // namespace

Result<double> ParseLogTime(const std::string& raw, bool utc) {
  const std::string text = Trim(raw);
  const auto bad = [&] {
    return Status::InvalidArgument("'" + text.substr(0, 40) + "' is not a timestamp");
  };
  if (text.empty()) return bad();
  {
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (*end == '\0') return v;  // Unix seconds
  }
  std::tm tm{};
  const char* p = text.c_str();
  int y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0;
  if (Digits(&p, 4, &y)) {
    if ((*p != '-' && *p != '/') || !Digits(&(++p), 2, &mo)) return bad();
    if ((*p != '-' && *p != '/') || !Digits(&(++p), 2, &d)) return bad();
  } else {
    p = text.c_str();
    if (!Digits(&p, 2, &mo) || *p != '/' || !Digits(&(++p), 2, &d) || *p != '/' ||
        !Digits(&(++p), 4, &y)) {
      return bad();
    }
  }
  if ((*p != 'T' && *p != ' ') || !Digits(&(++p), 2, &h) || *p != ':' || !Digits(&(++p), 2, &mi) ||
      *p != ':' || !Digits(&(++p), 2, &s)) {
    return bad();
  }
  double frac = 0;
  if (*p == '.') {
    const char* start = p;
    ++p;
    while (std::isdigit(static_cast<unsigned char>(*p)) != 0) ++p;
    frac = std::strtod(std::string(start, p).c_str(), nullptr);
  }
  tm.tm_year = y - 1900;
  tm.tm_mon = mo - 1;
  tm.tm_mday = d;
  tm.tm_hour = h;
  tm.tm_min = mi;
  tm.tm_sec = s;
  tm.tm_isdst = -1;
  double zone_sec = 0;
  bool zoned = false;
  if (*p == 'Z') {
    zoned = true;
    ++p;
  } else if (*p == '+' || *p == '-') {
    const int sign = *p == '-' ? -1 : 1;
    int zh = 0, zm = 0;
    ++p;
    if (!Digits(&p, 2, &zh)) return bad();
    if (*p == ':') ++p;
    if (!Digits(&p, 2, &zm)) return bad();
    zoned = true;
    zone_sec = sign * (zh * 3600 + zm * 60);
  }
  if (*p != '\0') return bad();
  const time_t t = zoned || utc ? timegm(&tm) : mktime(&tm);
  return static_cast<double>(t) - zone_sec + frac;
}

Result<std::vector<LoggedReading>> ParsePowerCsv(const std::string& text, const PowerSpec& spec,
                                                 const std::string& what) {
  std::istringstream in(text);
  std::string header;
  if (!std::getline(in, header)) return Status::InvalidArgument(what + " is empty");
  if (!header.empty() && header.back() == '\r') header.pop_back();
  char delim = ',';
  for (char c : {'\t', ';', ','}) {
    if (header.find(c) != std::string::npos) delim = c;
  }
  if (header.find(',') != std::string::npos) delim = ',';
  const std::vector<std::string> names = Split(header, delim);
  const auto column = [&](const std::string& name) -> int {
    for (size_t i = 0; i < names.size(); ++i) {
      if (Lower(names[i]) == Lower(name)) return static_cast<int>(i);
    }
    return -1;
  };
  std::vector<int> time_cols;
  const std::string time_opt = spec.Option("time", "time");
  std::string all;
  for (const std::string& n : names) all += (all.empty() ? "" : ", ") + n;
  {
    std::string part;
    std::istringstream parts(time_opt);
    while (std::getline(parts, part, '+')) {
      const int c = column(part);
      if (c < 0) {
        std::string m = what;
        m += " has no time column '" + part + "' (its columns: ";
        m += all;
        m += "); name it with time=";
        return Status::InvalidArgument(m);
      }
      time_cols.push_back(c);
    }
  }
  const std::string watts_opt = spec.Option("watts", "watts");
  const int watts_col = column(watts_opt);
  if (watts_col < 0) {
    return Status::InvalidArgument(what + " has no watts column '" + watts_opt +
                                   "' (its columns: " + all + "); name it with watts=");
  }
  double offset = 0;
  if (const std::string o = spec.Option("offset"); !o.empty()) {
    char* end = nullptr;
    offset = std::strtod(o.c_str(), &end);
    if (*end != '\0' || !std::isfinite(offset)) {
      return Status::InvalidArgument(what + ": offset='" + o + "' is not a number of seconds");
    }
  }
  const std::string tz = Lower(spec.Option("tz", "local"));
  if (tz != "utc" && tz != "local") {
    return Status::InvalidArgument(what + ": tz='" + tz + "' is neither utc nor local");
  }
  std::vector<LoggedReading> out;
  std::string line;
  int line_no = 1;
  while (std::getline(in, line)) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (Trim(line).empty()) continue;
    const std::vector<std::string> f = Split(line, delim);
    std::string when;
    for (int c : time_cols) {
      if (c >= static_cast<int>(f.size())) break;
      when += (when.empty() ? "" : " ") + f[static_cast<size_t>(c)];
    }
    auto t = ParseLogTime(when, tz == "utc");
    if (!t.ok()) {
      return Status::InvalidArgument(what + ", line " + std::to_string(line_no) + ": " +
                                     t.status().message());
    }
    if (watts_col >= static_cast<int>(f.size())) {
      return Status::InvalidArgument(what + ", line " + std::to_string(line_no) +
                                     " has no watts field");
    }
    const std::string& wt = f[static_cast<size_t>(watts_col)];
    double w = 0;
    // A decimal number (not "0x20", "inf" or "nan"); its range is the reading rule's to judge
    // when the log is placed on the run's seconds (power/reading_rule.h).
    if (wt.empty() || ParseDecimal(wt, &w) != wt.size()) {
      return Status::InvalidArgument(what + ", line " + std::to_string(line_no) + ": watts '" +
                                     wt.substr(0, 40) + "' is not a number");
    }
    out.push_back({*t + offset, w});
  }
  if (out.empty()) return Status::InvalidArgument(what + " holds no readings");
  return out;
}

namespace {

class CsvSource final : public PowerSource {
 public:
  explicit CsvSource(PowerSpec spec) : spec_(std::move(spec)) {
    caps_.live = false;
    caps_.measures = Measures::kWall;
    caps_.note = "imported analyzer log, aligned by wall-clock time";
  }

  Status Open() override {
    // Checked now when the file exists (its columns and timestamps); read again after the run,
    // when the logger has written the run's readings. A file that does not exist yet is a log
    // the analyzer's software exports after the run: a missing file then is an error recorded
    // in the result.
    std::error_code ec;
    if (!std::filesystem::exists(spec_.body, ec)) {
      if (spec_.body.empty()) {
        return Status::InvalidArgument("power source csv: names no file (csv:/path/log.csv)");
      }
      return Status::Ok();
    }
    auto r = ReadLog();
    if (!r.ok()) return Status(r.status().code(), r.status().message());
    return Status::Ok();
  }

  Result<PowerReading> Read() override {
    return Status::Internal("csv: sources are read after the run");
  }

  Result<std::vector<LoggedReading>> ReadLog() override {
    const std::string what = "power source csv:" + spec_.body;
    // A special file (/dev/zero, a FIFO) or a runaway size is refused (base/input_file.h).
    auto text = ReadInputFile(spec_.body, what + ": the file", limits::kMaxPowerLogBytes);
    if (!text.ok()) {
      if (text.status().code() == StatusCode::kNotFound) {
        return Status::FailedPrecondition(what + ": cannot read the file");
      }
      return text.status();
    }
    return ParsePowerCsv(*text, spec_, what);
  }

  const PowerCapabilities& capabilities() const override { return caps_; }
  const std::string& spec() const override { return spec_.text; }
  std::string Describe() const override {
    return "log " + spec_.body + " (time " + spec_.Option("time", "time") + ", watts " +
           spec_.Option("watts", "watts") + ", offset " + spec_.Option("offset", "0") + " s)";
  }

 private:
  PowerSpec spec_;
  PowerCapabilities caps_;
};

}  // namespace

std::unique_ptr<PowerSource> MakeCsvSource(const PowerSpec& spec) {
  return std::make_unique<CsvSource>(spec);
}

}  // namespace sb::power
