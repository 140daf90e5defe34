#include "workload/storage/icf.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>

#include "base/limits.h"
#include "base/strings.h"
#include "base/units.h"

namespace sb::storage {
namespace {

using Text = IcfValue<std::string>;

constexpr int64_t kNanosPerSecond = 1000000000;

// "'\thours  minutes  seconds": a column heading of the setting above it.
bool IsHeading(std::string_view t) {
  return !t.empty() && t[0] == '\'' &&
         (t.size() == 1 || std::isspace(static_cast<unsigned char>(t[1])));
}

std::vector<std::string> Words(std::string_view s) {
  std::vector<std::string> out;
  std::string word;
  for (char c : s) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (!word.empty()) out.push_back(std::move(word));
      word.clear();
    } else {
      word += c;
    }
  }
  if (!word.empty()) out.push_back(std::move(word));
  return out;
}

// One setting: a comment line naming it and the value lines below it (trimmed; trailing blank
// lines dropped, but a setting followed by one blank line has the empty value).
struct Item {
  std::string key;
  int line = 0;
  std::vector<Text> values;
};

struct Worker {
  std::string name;
  int line = 0;
  std::string type = "DISK";
  std::optional<IcfValue<int>> outstanding;
  std::optional<IcfValue<uint64_t>> fixed_seed;
  std::optional<IcfValue<uint64_t>> max_size, start;
  std::optional<IcfValue<DataPattern>> pattern;
  std::vector<Text> assigned;
  int assigned_line = 0;
  std::vector<std::string> targets;
};

struct SpecEntry {
  AccessSpec spec;
  std::string assignment;
  int name_line = 0;
  std::vector<int> line_lines;
};

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

class Parser {
 public:
  Parser(std::string_view text, const std::string& file) : file_(file) {
    size_t from = 0;
    while (from <= text.size()) {
      size_t nl = text.find('\n', from);
      if (nl == std::string_view::npos) nl = text.size();
      std::string_view l = text.substr(from, nl - from);
      if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
      lines_.emplace_back(l);
      from = nl + 1;
    }
  }

  Result<IcfImport> Parse() {
    out_.file = file_;
    SB_RETURN_IF_ERROR(ReadVersion());
    for (const Item& item : Items()) SB_RETURN_IF_ERROR(Handle(item));
    SB_RETURN_IF_ERROR(Assemble());
    return std::move(out_);
  }

 private:
  Status Error(int line, const std::string& what) const {
    return Status::InvalidArgument(file_ + " line " + std::to_string(line) + ": " + what);
  }

  Status TooManyWorkers(int line, int64_t n) const {
    return Error(line, "more than " + std::to_string(limits::kMaxIoWorkers) + " disk workers (" +
                           std::to_string(n) + ")");
  }

  // A value from the file for a message: at most a short prefix of a long line.
  static std::string Quote(std::string_view text) {
    return QuotablePrefix(text, limits::kMaxQuotedChars);
  }

  Status ReadVersion() {
    for (size_t i = 0; i < lines_.size(); ++i) {
      const std::string t = Trim(lines_[i]);
      if (t.empty()) continue;
      if (!StartsWithNoCase(t, "Version")) {
        return Error(static_cast<int>(i + 1),
                     "this is not an Iometer configuration file (its first line should be "
                     "'Version ...', e.g. 'Version 1.1.0')");
      }
      out_.version = Trim(std::string_view(t).substr(7));
      first_item_ = i + 1;
      // Iometer reads files older than version 1998.05.21 with a loader of their own (a
      // different layout: ICF_ifstream::GetVersion and the LoadConfigOld paths of Iometer
      // 1.1.0's ICF readers); storebench reads the current layout only.
      const std::string& v = out_.version;
      if (v.size() >= 10 && v[4] == '.' && v[7] == '.' &&
          std::all_of(v.begin(), v.begin() + 4, IsDigit) &&
          std::all_of(v.begin() + 5, v.begin() + 7, IsDigit) &&
          std::all_of(v.begin() + 8, v.begin() + 10, IsDigit)) {
        const std::string date = v.substr(0, 4) + v.substr(5, 2) + v.substr(8, 2);
        if (date < "19980521") {
          return Error(static_cast<int>(i + 1),
                       "this file is in the old ICF format of Iometer before 1998.05.21 (Version " +
                           Quote(v) +
                           "), which storebench does not read; open it in Iometer and save it "
                           "again to write the current format");
        }
      }
      return Status::Ok();
    }
    return Error(1, "the file is empty (an Iometer configuration file starts with 'Version ...')");
  }

  std::vector<Item> Items() const {
    std::vector<Item> items;
    for (size_t i = first_item_; i < lines_.size(); ++i) {
      const std::string t = Trim(lines_[i]);
      if (t.empty() || t[0] != '\'' || IsHeading(t)) continue;  // stray text is ignored
      Item item{t, static_cast<int>(i + 1), {}};
      size_t j = i + 1;
      for (; j < lines_.size(); ++j) {
        std::string v = Trim(lines_[j]);
        if (IsHeading(v)) continue;
        if (!v.empty() && v[0] == '\'') break;
        item.values.push_back({std::move(v), static_cast<int>(j + 1)});
      }
      const bool had_lines = !item.values.empty();
      while (!item.values.empty() && item.values.back().value.empty()) item.values.pop_back();
      if (had_lines && item.values.empty()) item.values.push_back({"", item.line + 1});
      items.push_back(std::move(item));
      i = j - 1;
    }
    return items;
  }

  Result<Text> Value(const Item& item) const {
    if (item.values.empty()) return Error(item.line, "'" + item.key.substr(1) + "' has no value");
    return item.values[0];
  }

  Result<int64_t> Number(const std::string& text, int line, const std::string& what) const {
    auto v = ParseInt(text, what);
    if (!v.ok()) {
      return Error(line, what + " '" + Quote(text) + "' is not a whole non-negative number");
    }
    return *v;
  }

  Status Handle(const Item& item) {
    const std::string& k = item.key;
    if (StartsWithNoCase(k, "'TEST SETUP")) return Enter(kSetup);
    if (StartsWithNoCase(k, "'RESULTS DISPLAY")) return Enter(kDisplay);
    if (StartsWithNoCase(k, "'ACCESS SPECIFICATIONS")) {
      if (specs_line_ == 0) specs_line_ = item.line;
      return Enter(kSpecs);
    }
    if (StartsWithNoCase(k, "'MANAGER LIST")) {
      if (managers_line_ == 0) managers_line_ = item.line;
      return Enter(kManagers);
    }
    if (EqualsNoCase(k, "'END manager list")) managers_ended_ = true;
    for (const char* end : {"'END test setup", "'END results display", "'END access specifications",
                            "'END manager list"}) {
      if (EqualsNoCase(k, end)) return Enter(kNone);
    }
    switch (section_) {
      case kSetup:
        return Setup(item);
      case kSpecs:
        return Specs(item);
      case kManagers:
        return Managers(item);
      case kDisplay:
      case kNone:
        return Status::Ok();
    }
    return Status::Ok();
  }

  enum Section { kNone, kSetup, kDisplay, kSpecs, kManagers };
  Status Enter(Section s) {
    section_ = s;
    return Status::Ok();
  }

  // 'TEST SETUP (CPageSetup::LoadConfig).
  Status Setup(const Item& item) {
    const std::string& k = item.key;
    if (EqualsNoCase(k, "'Test Description")) {
      out_.description = item.values.empty() ? "" : item.values[0].value;
    } else if (EqualsNoCase(k, "'Run Time")) {
      auto v = Value(item);
      if (!v.ok()) return v.status();
      std::vector<int64_t> hms;
      for (const std::string& word : Words(v->value)) {
        auto n = ParseInt(word, "run time");
        if (!n.ok()) break;
        hms.push_back(*n);
      }
      if (hms.size() != 3 || Words(v->value).size() != 3) {
        return Error(v->line,
                     "the run time should be three whole numbers (hours minutes "
                     "seconds), not '" +
                         Quote(v->value) + "'");
      }
      // Each field is bounded before multiplying, so the sum cannot overflow.
      constexpr int64_t kMaxSec = limits::kMaxDurationNanos / kNanosPerSecond;
      if (hms[0] > kMaxSec / 3600 || hms[1] > kMaxSec / 60 || hms[2] > kMaxSec ||
          hms[0] * 3600 + hms[1] * 60 + hms[2] > kMaxSec) {
        return Error(v->line, "the run time '" + Quote(v->value) + "' is longer than " +
                                  FormatDuration(limits::kMaxDurationNanos));
      }
      const int64_t sec = hms[0] * 3600 + hms[1] * 60 + hms[2];
      if (sec > 0) out_.run_nanos = IcfValue<int64_t>{sec * kNanosPerSecond, v->line};
    } else if (StartsWithNoCase(k, "'Ramp Up Time")) {
      auto v = Value(item);
      if (!v.ok()) return v.status();
      auto n = Number(v->value, v->line, "the ramp-up time");
      if (!n.ok()) return n.status();
      if (*n > limits::kMaxDurationNanos / kNanosPerSecond) {
        return Error(v->line, "the ramp-up time " + Quote(v->value) + " s is longer than " +
                                  FormatDuration(limits::kMaxDurationNanos));
      }
      out_.ramp_nanos = IcfValue<int64_t>{*n * kNanosPerSecond, v->line};
    } else if (EqualsNoCase(k, "'Default Disk Workers to Spawn") ||
               EqualsNoCase(k, "'Default Workers to Spawn")) {
      auto v = Value(item);
      if (!v.ok()) return v.status();
      if (EqualsNoCase(v->value, "NUMBER_OF_CPUS")) {
        default_workers_cpus_ = true;
        default_workers_ = IcfValue<int>{0, v->line};
      } else {
        auto n = Number(v->value, v->line, "the number of disk workers");
        if (!n.ok()) return n.status();
        if (*n > limits::kMaxIoWorkers) return TooManyWorkers(v->line, *n);
        default_workers_cpus_ = *n == 0 && EqualsNoCase(k, "'Default Workers to Spawn");
        default_workers_ = IcfValue<int>{static_cast<int>(*n), v->line};
      }
    } else if (EqualsNoCase(k, "'Test Type")) {
      auto v = Value(item);
      if (!v.ok()) return v.status();
      if (!EqualsNoCase(v->value, "NORMAL") && v->value != "0") {
        return Error(v->line, "the test type '" + Quote(v->value) +
                                  "' (one of Iometer's cycling tests) is not supported yet; "
                                  "only NORMAL is");
      }
    }
    // Description of results display, record results and the cycling steps (used only by the
    // cycling test types) do not change a NORMAL test.
    return Status::Ok();
  }

  // 'ACCESS SPECIFICATIONS (AccessSpecList::LoadConfigNew).
  Status Specs(const Item& item) {
    const std::string& k = item.key;
    if (EqualsNoCase(k, "'Access specification name,default assignment")) {
      auto v = Value(item);
      if (!v.ok()) return v.status();
      const size_t comma = v->value.rfind(',');
      SpecEntry e;
      e.spec.name = Trim(std::string_view(v->value).substr(0, comma));
      e.assignment =
          comma == std::string::npos ? "" : Trim(std::string_view(v->value).substr(comma + 1));
      e.name_line = v->line;
      if (e.spec.name.empty()) return Error(v->line, "an access specification has no name");
      if (spec_index_.count(e.spec.name) != 0) {
        return Error(v->line, "the access specification '" + e.spec.name + "' is defined twice");
      }
      if (specs_.size() >= limits::kMaxSpecs) {
        return Error(v->line, "more than " + std::to_string(limits::kMaxSpecs) +
                                  " access specifications in one file");
      }
      spec_index_[e.spec.name] = specs_.size();
      specs_.push_back(std::move(e));
      return Status::Ok();
    }
    if (StartsWithNoCase(k, "'size,")) {
      if (specs_.empty() || !specs_.back().spec.lines.empty()) {
        return Error(item.line,
                     "access specification lines without an access specification "
                     "name above them");
      }
      SpecEntry& e = specs_.back();
      for (const Text& v : item.values) {
        if (v.value.empty()) continue;
        if (e.spec.lines.size() >= limits::kMaxSpecLines) {
          return Error(v.line, "the access specification '" + e.spec.name + "' has more than " +
                                   std::to_string(limits::kMaxSpecLines) +
                                   " lines (Iometer's limit)");
        }
        auto l = SpecLine(v);
        if (!l.ok()) return l.status();
        e.spec.lines.push_back(*l);
        e.line_lines.push_back(v.line);
      }
      if (e.spec.lines.empty()) {
        return Error(item.line, "the access specification '" + e.spec.name + "' has no lines");
      }
      return Status::Ok();
    }
    return Error(item.line, "unexpected '" + Quote(k.substr(1)) + "' in the access specifications");
  }

  // "size,% of size,% reads,% random,delay,burst,align,reply" (a results file adds a comma).
  Result<AccessLine> SpecLine(const Text& v) const {
    std::vector<std::string> f = SplitTrimmed(v.value, ',');
    if (f.size() == 9 && f[8].empty()) f.pop_back();
    if (f.size() != 8) {
      return Error(v.line,
                   "an access specification line needs 8 comma-separated numbers "
                   "(size,% of size,% reads,% random,delay,burst,align,reply), not '" +
                       Quote(v.value) + "'");
    }
    int64_t n[8];
    static const char* kNames[8] = {"size",  "% of size", "% reads", "% random",
                                    "delay", "burst",     "align",   "reply"};
    for (int i = 0; i < 8; ++i) {
      auto x = Number(f[i], v.line, std::string("the ") + kNames[i] + " field");
      if (!x.ok()) return x.status();
      // Every field is an int or DWORD in Iometer; none is meaningful above 1 GiB (the largest
      // transfer its dialog takes), and the same limits apply to --spec (base/limits.h).
      if (*x > limits::kMaxTransferBytes) {
        return Error(v.line, std::string("the ") + kNames[i] + " field " + f[i] +
                                 " is larger than Iometer allows");
      }
      n[i] = *x;
    }
    AccessLine l;
    l.size = static_cast<uint32_t>(n[0]);
    l.pct_of_size = static_cast<int>(n[1]);  // ranges are checked by ValidateSpec
    l.pct_read = static_cast<int>(n[2]);
    l.pct_random = static_cast<int>(n[3]);
    l.delay_ms = static_cast<int>(n[4]);
    l.burst = static_cast<int>(n[5]);
    l.align = static_cast<uint32_t>(n[6]);  // 0 = sector boundaries
    l.reply = static_cast<uint32_t>(n[7]);
    return l;
  }

  // 'MANAGER LIST (Manager::LoadConfig, Worker::LoadConfig).
  Status Managers(const Item& item) {
    const std::string& k = item.key;
    if (EqualsNoCase(k, "'Manager ID, manager name") ||
        EqualsNoCase(k, "'Manager ID,manager name")) {
      if (++managers_ > 1) {
        return Error(item.line,
                     "a second manager: storebench runs one manager (this host); "
                     "keep one manager in the file");
      }
      return Status::Ok();
    }
    if (EqualsNoCase(k, "'Worker")) {
      if (workers_.size() >= static_cast<size_t>(limits::kMaxIoWorkers)) {
        return TooManyWorkers(item.line, static_cast<int64_t>(workers_.size()) + 1);
      }
      auto v = Value(item);
      if (!v.ok()) return v.status();
      Worker w;
      w.name = v->value;
      w.line = item.line;
      workers_.push_back(std::move(w));
      return Status::Ok();
    }
    if (workers_.empty()) return Status::Ok();  // manager settings: name, network address
    Worker& w = workers_.back();
    if (EqualsNoCase(k, "'Worker type")) {
      auto v = Value(item);
      if (!v.ok()) return v.status();
      w.type = v->value;
    } else if (StartsWithNoCase(k, "'Number of outstanding IOs")) {
      auto v = Value(item);
      if (!v.ok()) return v.status();
      const std::vector<std::string> f = SplitTrimmed(v->value, ',');
      auto n = Number(f[0], v->line, "the number of outstanding I/Os");
      if (!n.ok()) return n.status();
      if (*n < 1 || *n > limits::kMaxOutstanding) {
        return Error(v->line, "the number of outstanding I/Os must be 1 to " +
                                  std::to_string(limits::kMaxOutstanding) + ", not " +
                                  std::to_string(*n));
      }
      w.outstanding = IcfValue<int>{static_cast<int>(*n), v->line};
      // "# of outstanding IOs,test connection rate,transactions per connection,use fixed
      // seed,fixed seed value" (Iometer 1.1.0, Worker.cpp SaveConfig).
      if (f.size() >= 2 && EqualsNoCase(f[1], "ENABLED")) {
        return Error(v->line,
                     "worker '" + w.name +
                         "' tests the connection rate (the target closed and opened again "
                         "every few transactions), which storebench does not do; set 'test "
                         "connection rate' to DISABLED in the file to run it");
      }
      if (f.size() >= 5 && EqualsNoCase(f[3], "ENABLED")) {
        auto seed = Number(f[4], v->line, "the fixed seed value");
        if (!seed.ok()) return seed.status();
        if (*seed < 0) return Error(v->line, "the fixed seed value must not be negative");
        w.fixed_seed = IcfValue<uint64_t>{static_cast<uint64_t>(*seed), v->line};
      }
    } else if (StartsWithNoCase(k, "'Disk maximum size")) {
      auto v = Value(item);
      if (!v.ok()) return v.status();
      const std::vector<std::string> f = SplitTrimmed(v->value, ',');
      if (f.size() < 2) {
        return Error(v->line, "expected 'maximum size,starting sector[,data pattern]', not '" +
                                  Quote(v->value) + "'");
      }
      auto max = Number(f[0], v->line, "the maximum disk size");
      if (!max.ok()) return max.status();
      auto start = Number(f[1], v->line, "the starting sector");
      if (!start.ok()) return start.status();
      // Sectors become byte offsets: they must fit int64 after multiplying by 512.
      constexpr int64_t kMaxSectors = INT64_MAX / kSectorBytes;
      if (*max > kMaxSectors || *start > kMaxSectors || *max + *start > kMaxSectors) {
        return Error(v->line, "the maximum size and starting sector lie beyond 2^63 bytes");
      }
      w.max_size = IcfValue<uint64_t>{static_cast<uint64_t>(*max), v->line};
      w.start = IcfValue<uint64_t>{static_cast<uint64_t>(*start), v->line};
      if (f.size() >= 3) {
        auto p = Number(f[2], v->line, "the data pattern");
        if (!p.ok()) return p.status();
        // Iometer's DATA_PATTERN_REPEATING_BYTES, _PSEUDO_RANDOM, _FULL_RANDOM (IOCommon.h).
        static const DataPattern kPatterns[] = {DataPattern::kRepeating, DataPattern::kPseudoRandom,
                                                DataPattern::kFullRandom};
        if (*p > 2)
          return Error(v->line, "unknown data pattern " + f[2] + " (Iometer has 0, 1, 2)");
        w.pattern = IcfValue<DataPattern>{kPatterns[*p], v->line};
      }
    } else if (EqualsNoCase(k, "'Assigned access specs")) {
      w.assigned_line = item.line;
      for (const Text& v : item.values) {
        if (!v.value.empty()) w.assigned.push_back(v);
      }
    } else if (EqualsNoCase(k, "'Target")) {
      auto v = Value(item);
      if (!v.ok()) return v.status();
      w.targets.push_back(v->value);
    }
    // 'Target type, 'End ... and network-worker settings change nothing for disk workers.
    return Status::Ok();
  }

  template <typename T>
  static bool Same(const std::optional<IcfValue<T>>& a, const std::optional<IcfValue<T>>& b) {
    return a.has_value() == b.has_value() && (!a || a->value == b->value);
  }

  Status Assemble() {
    // Iometer writes "'END manager list" after the last manager (ManagerList::SaveConfig). A
    // file cut short inside the list may have lost workers, targets or assigned specifications,
    // and would then run other specifications than the file assigns: refuse it instead.
    if (managers_line_ > 0 && !managers_ended_) {
      int last = static_cast<int>(lines_.size());
      while (last > 1 && Trim(lines_[last - 1]).empty()) --last;
      return Error(last, "the manager list that starts at line " + std::to_string(managers_line_) +
                             " has no 'END manager list: the file is cut short; save it again "
                             "from Iometer");
    }
    std::vector<const Worker*> active;
    for (const Worker& w : workers_) {
      if (w.targets.empty() || w.assigned.empty()) continue;  // an idle worker
      if (!EqualsNoCase(w.type, "DISK")) {
        return Error(w.line, "worker '" + w.name + "' is a " + w.type +
                                 " worker; storebench runs disk workers only");
      }
      active.push_back(&w);
    }
    std::vector<std::pair<std::string, int>> names;  // name, line naming it
    if (!active.empty()) {
      const Worker& first = *active[0];
      for (const Worker* w : active) {
        auto differs = [&](const std::string& what, int line) {
          return Error(line, "worker '" + w->name + "' has other " + what + " than worker '" +
                                 first.name +
                                 "'; storebench runs every worker with the same "
                                 "settings");
        };
        std::vector<std::string> a, b;
        for (const Text& t : w->assigned) a.push_back(t.value);
        for (const Text& t : first.assigned) b.push_back(t.value);
        if (a != b) return differs("access specifications", w->assigned_line);
        if (!Same(w->outstanding, first.outstanding)) {
          return differs("outstanding I/Os", w->outstanding ? w->outstanding->line : w->line);
        }
        if (!Same(w->fixed_seed, first.fixed_seed)) {
          return differs("a fixed seed", w->outstanding ? w->outstanding->line : w->line);
        }
        if (!Same(w->max_size, first.max_size) || !Same(w->start, first.start) ||
            !Same(w->pattern, first.pattern)) {
          return differs("disk settings", w->max_size ? w->max_size->line : w->line);
        }
      }
      for (const Text& t : first.assigned) names.emplace_back(t.value, t.line);
      out_.selection = "assigned to the disk workers";
      out_.workers = IcfValue<int>{static_cast<int>(active.size()), first.line};
      out_.outstanding = first.outstanding;
      out_.fixed_seed = first.fixed_seed;
      if (first.max_size && first.max_size->value > 0) out_.max_size_sectors = first.max_size;
      if (first.start && first.start->value > 0) out_.start_sector = first.start;
      out_.pattern = first.pattern;
      out_.targets = first.targets;
    } else {
      for (const SpecEntry& e : specs_) {
        if (EqualsNoCase(e.assignment, "ALL") || EqualsNoCase(e.assignment, "DISK")) {
          names.emplace_back(e.spec.name, e.name_line);
        }
      }
      out_.selection = "default assignment ALL or DISK";
      if (names.empty()) {
        for (const SpecEntry& e : specs_) names.emplace_back(e.spec.name, e.name_line);
        out_.selection = "every specification in the file";
      }
      if (default_workers_ && (default_workers_cpus_ || default_workers_->value > 0)) {
        out_.workers = default_workers_;
        out_.workers_number_of_cpus = default_workers_cpus_;
      }
    }
    for (const auto& [name, line] : names) {
      auto it = spec_index_.find(name);
      if (it == spec_index_.end()) {
        return Error(line, "the access specification '" + name +
                               "' is assigned but not defined in the file");
      }
      const SpecEntry& e = specs_[it->second];
      out_.specs.push_back(e.spec);
      out_.spec_name_lines.push_back(e.name_line);
      out_.spec_line_lines.push_back(e.line_lines);
    }
    if (out_.specs.empty()) {
      int last = static_cast<int>(lines_.size());
      while (last > 1 && Trim(lines_[last - 1]).empty()) --last;
      return Error(specs_line_ > 0 ? specs_line_ : last,
                   "the file defines no access specifications (no 'ACCESS SPECIFICATIONS "
                   "section with 'Access specification name,default assignment)");
    }
    return Status::Ok();
  }

  const std::string& file_;
  std::vector<std::string> lines_;
  size_t first_item_ = 0;
  Section section_ = kNone;
  int specs_line_ = 0;  // the first 'ACCESS SPECIFICATIONS header
  IcfImport out_;
  std::vector<SpecEntry> specs_;
  std::map<std::string, size_t> spec_index_;
  std::optional<IcfValue<int>> default_workers_;
  bool default_workers_cpus_ = false;
  int managers_ = 0;
  int managers_line_ = 0;  // the first 'MANAGER LIST header
  bool managers_ended_ = false;
  std::vector<Worker> workers_;
};

}  // namespace

namespace {

Status TooLarge(const std::string& file) {
  return Status::InvalidArgument(file + ": the file is larger than " +
                                 std::to_string(limits::kMaxIcfBytes >> 20) +
                                 " MiB, which no Iometer configuration file is");
}

}  // namespace

Result<std::string> ReadIcfText(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) {
    return Status::InvalidArgument("cannot read the ICF file '" + path +
                                   "': " + std::strerror(errno));
  }
  // Reads at most one byte more than allowed: a huge file (or /dev/zero) is refused without
  // being read into memory.
  std::string text(limits::kMaxIcfBytes + 1, '\0');
  const size_t n = std::fread(text.data(), 1, text.size(), f);
  const bool failed = std::ferror(f) != 0;
  const int err = errno;
  std::fclose(f);
  if (failed) {
    return Status::InvalidArgument("cannot read the ICF file '" + path +
                                   "': " + std::strerror(err));
  }
  if (n > limits::kMaxIcfBytes) return TooLarge(path);
  text.resize(n);
  return text;
}

Result<IcfImport> ParseIcf(std::string_view text, const std::string& file) {
  if (text.size() > limits::kMaxIcfBytes) return TooLarge(file);
  return Parser(text, file).Parse();
}

Status ValidateIcfSpecs(const IcfImport& icf, bool direct) {
  for (size_t i = 0; i < icf.specs.size(); ++i) {
    int bad = -1;
    Status s = ValidateSpec(icf.specs[i], direct, &bad);
    if (s.ok()) continue;
    const int line = bad >= 0 && static_cast<size_t>(bad) < icf.spec_line_lines[i].size()
                         ? icf.spec_line_lines[i][bad]
                         : icf.spec_name_lines[i];
    return Status::InvalidArgument(icf.file + " line " + std::to_string(line) + ": " + s.message());
  }
  return Status::Ok();
}

}  // namespace sb::storage
