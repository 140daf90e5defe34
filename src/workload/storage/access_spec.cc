#include "workload/storage/access_spec.h"

#include <algorithm>

#include "base/limits.h"
#include "base/strings.h"
#include "base/units.h"

namespace sb::storage {
namespace {

Result<int> Percent(const std::string& number, const std::string& term) {
  auto v = ParseInt(number, "'" + term + "'");
  if (!v.ok()) return v.status();
  if (*v > 100) return Status::InvalidArgument("'" + term + "' is more than 100%");
  return static_cast<int>(*v);
}

AccessLine Line(uint32_t size, int of, int read, int random) {
  AccessLine l;
  l.size = size;
  l.pct_of_size = of;
  l.pct_read = read;
  l.pct_random = random;
  return l;
}

AccessSpec Spec(std::string name, std::vector<AccessLine> lines) {
  return AccessSpec{std::move(name), std::move(lines)};
}

void ApplyAlign(std::vector<AccessSpec>* specs, AlignMode mode) {
  for (auto& s : *specs) {
    for (auto& l : s.lines) l.align = mode == AlignMode::kSize ? l.size : 0;
  }
}

constexpr uint32_t K = 1024;

}  // namespace

std::string AccessLine::ToIcfLine() const {
  return std::to_string(size) + "," + std::to_string(pct_of_size) + "," +
         std::to_string(pct_read) + "," + std::to_string(pct_random) + "," +
         std::to_string(delay_ms) + "," + std::to_string(burst) + "," + std::to_string(align) +
         "," + std::to_string(reply);
}

uint32_t AccessSpec::MaxTransfer() const {
  uint32_t m = 0;
  for (const auto& l : lines) m = std::max(m, l.size);
  return m;
}

bool AccessSpec::HasWrites() const {
  return std::any_of(lines.begin(), lines.end(), [](const AccessLine& l) {
    return l.pct_read < 100 && l.pct_of_size > 0;
  });
}

Status ValidateSpec(const AccessSpec& spec, bool direct, int* bad_line) {
  int bad = -1;
  const std::string where = "access specification '" + spec.name + "'";
  auto check = [&]() -> Status {
    if (spec.lines.empty()) return Status::InvalidArgument(where + " has no lines");
    int share = 0;
    for (size_t i = 0; i < spec.lines.size(); ++i) {
      const AccessLine& l = spec.lines[i];
      bad = static_cast<int>(i);
      const std::string line = where + " line " + std::to_string(i + 1);
      if (l.size == 0) {
        return Status::InvalidArgument(line + ": transfer size must be at least 1 B");
      }
      if (direct && l.size % kSectorBytes != 0) {
        return Status::InvalidArgument(line + ": transfer size " + std::to_string(l.size) +
                                       " B is not a multiple of 512 B, which O_DIRECT needs "
                                       "(use --direct=N)");
      }
      for (int pct : {l.pct_of_size, l.pct_read, l.pct_random}) {
        if (pct < 0 || pct > 100) {
          return Status::InvalidArgument(line + ": percentage out of 0..100");
        }
      }
      if (l.burst < 1) return Status::InvalidArgument(line + ": burst must be at least 1");
      if (l.delay_ms < 0) return Status::InvalidArgument(line + ": delay must not be negative");
      if (l.align % kSectorBytes != 0) {
        return Status::InvalidArgument(line + ": alignment " + std::to_string(l.align) +
                                       " is not a multiple of the 512-byte sector");
      }
      if (l.reply != 0) {
        return Status::InvalidArgument(line + ": reply sizes apply to network targets only");
      }
      share += l.pct_of_size;
    }
    bad = -1;
    if (share != 100) {
      return Status::InvalidArgument(where + ": the lines' \"% of size\" add up to " +
                                     std::to_string(share) + ", not 100");
    }
    return Status::Ok();
  };
  Status s = check();
  if (!s.ok() && bad_line != nullptr) *bad_line = bad;
  return s;
}

namespace {

// The same limits as the ICF reader's (base/limits.h): a value that would not fit Iometer's int
// fields is refused, never wrapped.
Status OverLimit(const std::string& term, int64_t max) {
  return Status::InvalidArgument("'" + term + "' is larger than Iometer allows (at most " +
                                 std::to_string(max) + ")");
}

}  // namespace

Result<AccessSpec> ParseSpecText(std::string_view text) {
  AccessSpec spec;
  spec.name = Trim(text);
  const std::vector<std::string> lines = SplitTrimmed(text, ';');
  if (lines.size() > limits::kMaxSpecLines) {
    return Status::InvalidArgument("the access specification has " + std::to_string(lines.size()) +
                                   " lines; Iometer allows at most " +
                                   std::to_string(limits::kMaxSpecLines));
  }
  int given_share = 0, without_share = 0;
  std::vector<bool> has_share;
  for (const std::string& line_text : lines) {
    AccessLine l;
    l.pct_read = 100;
    l.pct_random = 0;
    bool size_seen = false, share_seen = false, align_size = false;
    for (const std::string& term_raw : SplitTrimmed(line_text, ',')) {
      const std::string term = Lower(term_raw);
      if (term.empty()) continue;
      const size_t pct = term.find('%');
      const size_t eq = term.find('=');
      if (pct != std::string::npos) {
        auto v = Percent(term.substr(0, pct), term_raw);
        if (!v.ok()) return v.status();
        const std::string what = term.substr(pct + 1);
        if (what == "read" || what == "reads") {
          l.pct_read = *v;
        } else if (what == "write" || what == "writes") {
          l.pct_read = 100 - *v;
        } else if (what == "random" || what == "rand") {
          l.pct_random = *v;
        } else if (what == "seq" || what == "sequential") {
          l.pct_random = 100 - *v;
        } else if (what == "of" || what == "ofsize") {
          l.pct_of_size = *v;
          share_seen = true;
        } else {
          return Status::InvalidArgument("unknown term '" + term_raw +
                                         "' (use %read, %write, %random, %seq or %of)");
        }
      } else if (eq != std::string::npos) {
        const std::string key = term.substr(0, eq), value = term.substr(eq + 1);
        if (key == "delay") {
          auto d = ParseDurationNanos(value, 1000000);
          if (!d.ok()) return d.status();
          if (*d / 1000000 > limits::kMaxDelayMs) return OverLimit(term_raw, limits::kMaxDelayMs);
          l.delay_ms = static_cast<int>(*d / 1000000);
        } else if (key == "burst") {
          auto b = ParseInt(value, "burst");
          if (!b.ok()) return b.status();
          if (*b > limits::kMaxBurst) return OverLimit(term_raw, limits::kMaxBurst);
          l.burst = static_cast<int>(*b);
        } else if (key == "align") {
          if (value == "sector") {
            l.align = 0;
          } else if (value == "size") {
            align_size = true;
          } else {
            auto a = ParseBytes(value);
            if (!a.ok()) return a.status();
            if (*a > static_cast<uint64_t>(limits::kMaxTransferBytes)) {
              return OverLimit(term_raw, limits::kMaxTransferBytes);
            }
            l.align = static_cast<uint32_t>(*a);
          }
        } else {
          return Status::InvalidArgument("unknown term '" + term_raw +
                                         "' (use delay=, burst= or align=)");
        }
      } else if (!size_seen) {
        auto b = ParseBytes(term);
        if (!b.ok()) return b.status();
        if (*b > static_cast<uint64_t>(limits::kMaxTransferBytes)) {
          return Status::InvalidArgument("transfer size '" + term_raw + "' is over 1 GiB");
        }
        l.size = static_cast<uint32_t>(*b);
        size_seen = true;
      } else {
        return Status::InvalidArgument("unexpected term '" + term_raw + "' in '" + line_text + "'");
      }
    }
    if (!size_seen) {
      return Status::InvalidArgument("access specification line '" + line_text +
                                     "' has no transfer size (e.g. 8KiB)");
    }
    if (align_size) l.align = l.size;
    if (share_seen) {
      given_share += l.pct_of_size;
    } else {
      ++without_share;
    }
    has_share.push_back(share_seen);
    spec.lines.push_back(l);
  }
  // Lines without "%of" share what is left equally; the first ones take the remainder.
  if (without_share > 0) {
    const int left = std::max(0, 100 - given_share);
    int extra = left % without_share;
    for (size_t i = 0; i < spec.lines.size(); ++i) {
      if (has_share[i]) continue;
      spec.lines[i].pct_of_size = left / without_share + (extra > 0 ? 1 : 0);
      if (extra > 0) --extra;
    }
  }
  return spec;
}

std::vector<std::string> PresetNames() {
  return {"vmtn", "database", "fileserver", "webserver", "workstation"};
}

Result<Preset> FindPreset(std::string_view name_in, AlignMode align) {
  const std::string name = Lower(name_in);
  Preset p;
  p.name = name;
  if (name == "vmtn") {
    // The VMware Communities "unofficial storage performance thread" (storage.md §1.1). Sizes,
    // % read, % random and 2-minute runs are confirmed; outstanding I/Os, workers, test-file
    // size and ramp are the documented defaults of §1.2 (unconfirmed, printed with results).
    p.description =
        "VMTN unofficial storage performance thread (OpenPerformanceTest.icf): confirmed sizes, "
        "% read, % random, 120 s runs; unconfirmed defaults: 64 outstanding I/Os, 1 worker, "
        "16,000,000-sector test range, no ramp";
    p.specs = {Spec("Max Throughput-100%Read", {Line(32 * K, 100, 100, 0)}),
               Spec("RealLife-60%Rand-65%Read", {Line(8 * K, 100, 65, 60)}),
               Spec("Max Throughput-50%Read", {Line(32 * K, 100, 50, 0)}),
               Spec("Random-8k-70%Read", {Line(8 * K, 100, 70, 100)})};
    p.outstanding = 64;
    p.workers = 1;
    p.max_size_sectors = 16000000;
    p.ramp_nanos = 0;
    p.run_nanos = 120LL * 1000000000;
  } else if (name == "database") {
    p.description = "Iometer/StorageReview Database pattern: 8 KiB, 67% read, 100% random";
    p.specs = {Spec("Database", {Line(8 * K, 100, 67, 100)})};
  } else if (name == "workstation") {
    p.description = "Iometer/StorageReview Workstation pattern: 8 KiB, 80% read, 80% random";
    p.specs = {Spec("Workstation", {Line(8 * K, 100, 80, 80)})};
  } else if (name == "fileserver") {
    p.description =
        "Iometer/StorageReview File Server pattern: 512 B-64 KiB mix (60% 4 KiB), 80% read, "
        "100% random";
    p.specs = {Spec("File Server",
                    {Line(512, 10, 80, 100), Line(1 * K, 5, 80, 100), Line(2 * K, 5, 80, 100),
                     Line(4 * K, 60, 80, 100), Line(8 * K, 2, 80, 100), Line(16 * K, 4, 80, 100),
                     Line(32 * K, 4, 80, 100), Line(64 * K, 10, 80, 100)})};
  } else if (name == "webserver") {
    p.description =
        "Iometer/StorageReview Web Server pattern: 512 B-512 KiB mix, 100% read, 100% random";
    p.specs = {Spec("Web Server",
                    {Line(512, 22, 100, 100), Line(1 * K, 15, 100, 100), Line(2 * K, 8, 100, 100),
                     Line(4 * K, 23, 100, 100), Line(8 * K, 15, 100, 100),
                     Line(16 * K, 2, 100, 100), Line(32 * K, 6, 100, 100),
                     Line(64 * K, 7, 100, 100), Line(128 * K, 1, 100, 100),
                     Line(512 * K, 1, 100, 100)})};
  } else {
    std::string known;
    for (const auto& n : PresetNames()) known += (known.empty() ? "" : ", ") + n;
    return Status::InvalidArgument("unknown preset '" + std::string(name_in) + "' (known: " +
                                   known + ")");
  }
  if (name != "vmtn") {
    // The classic server patterns are usually run at a "Moderate" load (fio's Iometer example:
    // 64 outstanding I/Os).
    p.outstanding = 64;
    p.run_nanos = 60LL * 1000000000;
  }
  ApplyAlign(&p.specs, align);
  return p;
}

}  // namespace sb::storage
