#include "config/options.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <utility>

#include "base/limits.h"
#include "base/strings.h"
#include "base/units.h"

namespace sb::config {

namespace {

// Names are stored and compared with '-' written as '_'.
std::string NormalizeName(std::string_view name) {
  std::string out(name);
  std::replace(out.begin(), out.end(), '-', '_');
  return out;
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string Upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

[[noreturn]] void Die(const std::string& message) {
  std::fprintf(stderr, "storebench: internal error: %s\n", message.c_str());
  std::abort();
}

// Optimal string alignment distance (Levenshtein plus adjacent transpositions).
size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.size()][b.size()];
}

std::string FormatDouble(double v) {
  char buf[64];
  auto [ptr, ec] = std::to_chars(buf, buf + sizeof(buf), v);
  if (ec != std::errc()) return std::to_string(v);
  return std::string(buf, ptr);
}

// Exact, unlike FormatDuration, which rounds to milliseconds.
std::string FormatDurationExact(int64_t nanos) {
  if (nanos % 1000000 == 0) return FormatDuration(nanos);
  if (nanos % 1000 == 0) return std::to_string(nanos / 1000) + "us";
  return std::to_string(nanos) + "ns";
}

std::string UnitName(int64_t nanos) {
  switch (nanos) {
    case 1:
      return "nanoseconds";
    case 1000:
      return "microseconds";
    case 1000000:
      return "milliseconds";
    case 1000000000:
      return "seconds";
    case 60000000000:
      return "minutes";
    case 3600000000000:
      return "hours";
    default:
      return "units of " + FormatDurationExact(nanos);
  }
}

std::string JoinChoices(const std::vector<std::string>& choices) {
  std::string out;
  for (size_t i = 0; i < choices.size(); ++i) {
    if (i > 0) out += (i + 1 == choices.size()) ? " or " : ", ";
    out += choices[i];
  }
  return out;
}

std::string BelowMinimum(const OptionSpec& spec, const std::string& min) {
  return "is below the minimum of " + min + (spec.zero_is_off ? " (0 = off)" : "");
}

struct Parsed {
  std::string text;
  int64_t int_value = 0;
  double double_value = 0;
};

// Parses `raw` for `spec`. On failure returns the problem phrase (e.g. "is not a number");
// the caller wraps it into a sentence naming the option, the value and the origin.
std::string ParseValue(const OptionSpec& spec, std::string_view raw, Parsed* out,
                       bool through_alias = false) {
  // One rule for every type: the value is the text as given. A blank around a number is refused
  // like any other stray character (DriverConfig files trim their lines before this).
  const std::string_view v = raw;
  switch (spec.type) {
    case OptionType::kInt: {
      auto r = ParseInt(v, spec.name);
      if (!r.ok()) {
        // ParseInt also fails on overflow; say which.
        const bool digits = !v.empty() && std::all_of(v.begin(), v.end(), [](char c) {
          return std::isdigit(static_cast<unsigned char>(c)) != 0;
        });
        return digits ? "is too large" : "is not a whole non-negative number";
      }
      const bool off = spec.zero_is_off && *r == 0;
      if (*r < spec.min && !off) return BelowMinimum(spec, std::to_string(spec.min));
      if (*r > spec.max) return "is above the maximum of " + std::to_string(spec.max);
      out->int_value = *r;
      out->double_value = static_cast<double>(*r);
      out->text = std::to_string(*r);
      return "";
    }
    case OptionType::kDouble: {
      auto r = ParseDouble(v, spec.name);
      if (!r.ok()) return "is not a number";
      const bool off = spec.zero_is_off && *r == 0;
      if (*r < spec.min_double && !off) return BelowMinimum(spec, FormatDouble(spec.min_double));
      if (*r > spec.max_double) return "is above the maximum of " + FormatDouble(spec.max_double);
      out->double_value = *r;
      out->text = FormatDouble(*r);
      return "";
    }
    case OptionType::kBool: {
      if (spec.y_or_n_only && v != "Y" && v != "N") {
        return "is not Y or N: the peer tool reads exactly Y as yes and anything else as no";
      }
      auto r = ParseBool(v, spec.name);
      if (!r.ok()) return "is not Y or N (yes/no, true/false, on/off and 1/0 also work)";
      out->int_value = *r ? 1 : 0;
      out->text = *r ? "Y" : "N";
      return "";
    }
    case OptionType::kString:
      out->text = std::string(v);
      return "";
    case OptionType::kDuration: {
      const int64_t bare_unit = through_alias && spec.alias_bare_unit_nanos > 0
                                    ? spec.alias_bare_unit_nanos
                                    : spec.bare_unit_nanos;
      const bool bare_number = !v.empty() && std::all_of(v.begin(), v.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c)) != 0 || c == '.';
      });
      // "0" means the same in every unit.
      if (bare_number && !through_alias && !spec.bare_number_refused.empty() &&
          v.find_first_not_of("0.") != std::string_view::npos) {
        return "has no unit: " + spec.bare_number_refused;
      }
      auto r = ParseDurationNanos(v, bare_unit);
      if (!r.ok() || *r < 0) {
        return "is not a duration like 90s, 2m or 1h30m, or a bare number of " +
               UnitName(bare_unit);
      }
      const bool off = spec.zero_is_off && *r == 0;
      if (*r < spec.min && !off) return BelowMinimum(spec, FormatDurationExact(spec.min));
      if (*r > spec.max) return "is above the maximum of " + FormatDurationExact(spec.max);
      out->int_value = *r;
      out->double_value = static_cast<double>(*r) / 1e9;
      out->text = FormatDurationExact(*r);
      return "";
    }
    case OptionType::kEnum: {
      for (const std::string& choice : spec.choices) {
        if (Lower(choice) == Lower(v)) {
          out->text = choice;
          return "";
        }
      }
      return "is not " + JoinChoices(spec.choices);
    }
    case OptionType::kDbSize: {
      const std::string u = Upper(v);
      if (u == "S" || u == "M" || u == "L") {
        out->text = u;
        return "";
      }
      const std::string not_size = "is not S, M, L or a whole number followed by MB or GB";
      if (u.size() < 3) return not_size;
      const std::string unit = u.substr(u.size() - 2);
      if (unit != "MB" && unit != "GB") return not_size;
      const std::string_view digits = std::string_view(u).substr(0, u.size() - 2);
      auto n = ParseInt(digits, spec.name);
      if (!n.ok()) return not_size;
      const int64_t max = unit == "MB" ? 1023 : 4095;
      if (*n < 1 || *n > max) {
        return "is out of range: " + unit + " sizes must be 1 to " + std::to_string(max) +
               (unit == "MB" ? " (use GB for larger sizes)" : "");
      }
      out->int_value = *n;
      out->text = std::to_string(*n) + unit;
      return "";
    }
  }
  return "has an unknown type";
}

const char* TypeName(OptionType t) {
  switch (t) {
    case OptionType::kInt:
      return "int";
    case OptionType::kDouble:
      return "double";
    case OptionType::kBool:
      return "bool";
    case OptionType::kString:
      return "string";
    case OptionType::kDuration:
      return "duration";
    case OptionType::kEnum:
      return "enum";
    case OptionType::kDbSize:
      return "db size";
  }
  return "?";
}

constexpr char kRedacted[] = "<redacted>";

}  // namespace

void OptionSet::Add(OptionSpec spec) {
  if (spec.name.empty()) Die("an option was declared without a name");
  if (spec.type == OptionType::kEnum && spec.choices.empty()) {
    Die("enum option '" + spec.name + "' was declared without choices");
  }
  if (spec.type == OptionType::kDuration && spec.bare_unit_nanos <= 0) {
    Die("duration option '" + spec.name + "' has a bare unit that is not positive");
  }
  std::vector<std::string> keys;
  keys.push_back(NormalizeName(spec.name));
  for (const std::string& alias : spec.aliases) {
    if (alias.empty()) Die("option '" + spec.name + "' has an empty alias");
    // An alias that differs only in '-' versus '_' (e.g. "config-file") is redundant, not a clash.
    std::string key = NormalizeName(alias);
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(std::move(key));
  }
  for (const std::string& key : keys) {
    if (by_name_.count(key) != 0) Die("option name '" + key + "' is declared twice");
  }
  if (FindShort(spec.short_alias) != nullptr) {
    Die(std::string("short option '-") + spec.short_alias + "' is declared twice");
  }
  Entry entry;
  Parsed parsed;
  const std::string problem = ParseValue(spec, spec.default_value, &parsed);
  if (!problem.empty()) {
    Die("option " + spec.name + ": default '" + spec.default_value + "' " + problem);
  }
  if (entry.spec.repeatable && entry.set && !entry.text.empty() && !parsed.text.empty()) {
    entry.text += "," + parsed.text;
  } else {
    entry.text = std::move(parsed.text);
  }
  entry.int_value = parsed.int_value;
  entry.double_value = parsed.double_value;
  entry.spec = std::move(spec);
  const size_t index = entries_.size();
  entries_.push_back(std::move(entry));
  for (const std::string& key : keys) by_name_[key] = index;
}

const OptionSet::Entry* OptionSet::Lookup(std::string_view name_or_alias, bool ignore_case) const {
  const std::string key = NormalizeName(name_or_alias);
  auto it = by_name_.find(key);
  if (it != by_name_.end()) return &entries_[it->second];
  if (!ignore_case) return nullptr;
  const std::string lower = Lower(key);
  // Declaration order, so the result does not depend on map ordering.
  for (const Entry& e : entries_) {
    if (Lower(NormalizeName(e.spec.name)) == lower) return &e;
    for (const std::string& alias : e.spec.aliases) {
      if (Lower(NormalizeName(alias)) == lower) return &e;
    }
  }
  return nullptr;
}

bool OptionSet::Has(std::string_view name_or_alias) const {
  return Lookup(name_or_alias, false) != nullptr;
}

const OptionSpec* OptionSet::FindSpec(std::string_view name_or_alias, bool ignore_case) const {
  const Entry* e = Lookup(name_or_alias, ignore_case);
  return e == nullptr ? nullptr : &e->spec;
}

const OptionSpec* OptionSet::FindShort(char letter) const {
  if (letter == 0) return nullptr;
  for (const Entry& e : entries_) {
    if (e.spec.short_alias == letter) return &e.spec;
  }
  return nullptr;
}

Status OptionSet::UnknownOption(std::string_view name, std::string_view origin) const {
  const std::string wanted = Lower(NormalizeName(name));
  std::string best;
  size_t best_distance = 3;  // suggest only within distance 2
  for (const Entry& e : entries_) {
    std::vector<const std::string*> spellings{&e.spec.name};
    for (const std::string& alias : e.spec.aliases) spellings.push_back(&alias);
    for (const std::string* s : spellings) {
      const size_t d = EditDistance(wanted, Lower(NormalizeName(*s)));
      if (d < best_distance && d < wanted.size()) {
        best_distance = d;
        best = *s;
      }
    }
  }
  std::string message = "unknown option '" + QuotablePrefix(name, limits::kMaxQuotedChars) + "' (" +
                        std::string(origin) + ")";
  if (!best.empty()) message += "; did you mean '" + best + "'?";
  message += best.empty() ? "; see " : " see ";
  message += help_command_;
  return Status::InvalidArgument(std::move(message));
}

Status OptionSet::Set(std::string_view name_or_alias, std::string_view value,
                      std::string_view origin) {
  const Entry* found = Lookup(name_or_alias, false);
  if (found == nullptr) return UnknownOption(name_or_alias, origin);
  Entry& entry = entries_[static_cast<size_t>(found - entries_.data())];
  if (!entry.spec.refusal.empty()) {
    return Status::InvalidArgument("option " + entry.spec.name + " is not accepted (" +
                                   std::string(origin) + "): " + entry.spec.refusal);
  }
  Parsed parsed;
  const bool through_alias = NormalizeName(name_or_alias) != NormalizeName(entry.spec.name);
  const std::string problem = ParseValue(entry.spec, value, &parsed, through_alias);
  if (!problem.empty()) {
    const std::string shown =
        entry.spec.secret ? kRedacted : QuotablePrefix(value, limits::kMaxQuotedChars);
    return Status::InvalidArgument("option " + entry.spec.name + ": '" + shown + "' " + problem +
                                   " (" + std::string(origin) + ")");
  }
  if (entry.spec.repeatable && entry.set && !entry.text.empty() && !parsed.text.empty()) {
    entry.text += "," + parsed.text;
  } else {
    entry.text = std::move(parsed.text);
  }
  entry.int_value = parsed.int_value;
  entry.double_value = parsed.double_value;
  entry.set = true;
  return Status::Ok();
}

const OptionSet::Entry& OptionSet::FindAny(std::string_view name) const {
  const Entry* e = Lookup(name, false);
  if (e == nullptr) Die("option '" + std::string(name) + "' is not declared");
  return *e;
}

const OptionSet::Entry& OptionSet::Find(std::string_view name, OptionType type) const {
  const Entry& e = FindAny(name);
  if (e.spec.type != type) {
    Die("option '" + std::string(name) + "' is declared as " + TypeName(e.spec.type) + ", not " +
        TypeName(type));
  }
  return e;
}

int64_t OptionSet::GetInt(std::string_view name) const {
  return Find(name, OptionType::kInt).int_value;
}

double OptionSet::GetDouble(std::string_view name) const {
  return Find(name, OptionType::kDouble).double_value;
}

bool OptionSet::GetBool(std::string_view name) const {
  return Find(name, OptionType::kBool).int_value != 0;
}

const std::string& OptionSet::GetString(std::string_view name) const {
  const Entry& e = FindAny(name);
  if (e.spec.type != OptionType::kString && e.spec.type != OptionType::kEnum &&
      e.spec.type != OptionType::kDbSize) {
    Die("option '" + std::string(name) + "' is declared as " + TypeName(e.spec.type) +
        ", not string, enum or db size");
  }
  return e.text;
}

int64_t OptionSet::GetDurationNanos(std::string_view name) const {
  return Find(name, OptionType::kDuration).int_value;
}

bool OptionSet::IsSet(std::string_view name) const { return FindAny(name).set; }

Status OptionSet::SetFrom(const OptionSet& from, const std::vector<std::string>& except,
                          std::string_view origin) {
  for (const Entry& e : entries_) {
    if (std::find(except.begin(), except.end(), e.spec.name) != except.end()) continue;
    const Entry* other = from.Lookup(e.spec.name, /*ignore_case=*/false);
    if (other == nullptr || !other->set || other->spec.type != e.spec.type) continue;
    // A duration's text may be a bare number in a unit that depends on the spelling it was
    // set by; its nanoseconds do not.
    const std::string value = e.spec.type == OptionType::kDuration
                                  ? std::to_string(other->int_value) + "ns"
                                  : other->text;
    SB_RETURN_IF_ERROR(Set(e.spec.name, value, origin));
  }
  return Status::Ok();
}

std::string OptionSet::ToJson() const {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  for (const Entry& e : entries_) {
    auto& slot = j[e.spec.name];
    if (e.spec.secret) {
      slot = kRedacted;
      continue;
    }
    switch (e.spec.type) {
      case OptionType::kInt:
        slot = e.int_value;
        break;
      case OptionType::kDouble:
        slot = e.double_value;
        break;
      case OptionType::kBool:
        slot = e.int_value != 0;
        break;
      case OptionType::kDuration:
        slot = static_cast<double>(e.int_value) / 1e9;
        break;
      case OptionType::kString:
      case OptionType::kEnum:
      case OptionType::kDbSize:
        slot = e.text;
        break;
    }
  }
  // Invalid UTF-8 in a user string must not throw.
  return j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

std::string OptionSet::EchoLine() const {
  std::string out;
  for (const Entry& e : entries_) {
    if (!out.empty()) out += ' ';
    // Printed on the console: values from DriverConfig files must not carry escape sequences.
    out += e.spec.name + "=" + (e.spec.secret ? std::string(kRedacted) : EscapeForTerminal(e.text));
  }
  return out;
}

std::string OptionSet::Text(std::string_view name) const {
  const Entry& e = FindAny(name);
  return e.spec.secret ? std::string(kRedacted) : EscapeForTerminal(e.text);
}

std::string OptionSet::HelpText() const {
  std::vector<std::string> groups;
  for (const Entry& e : entries_) {
    if (std::find(groups.begin(), groups.end(), e.spec.group) == groups.end()) {
      groups.push_back(e.spec.group);
    }
  }
  // Lines of at most 100 columns: an option's help goes on below it, indented under its name.
  constexpr size_t kWidth = 100, kIndent = 6;
  std::string out;
  if (!Has("config_file")) {
    out += WrapLine(
        "  --config_file, --config-file PATH  read name=value settings, one a line, from a "
        "file at that point (later settings win)",
        kWidth, kIndent);
  }
  for (const std::string& group : groups) {
    if (!out.empty()) out += '\n';
    out += (group.empty() ? std::string("other") : group) + " options:\n";
    for (const Entry& e : entries_) {
      if (e.spec.group != group) continue;
      std::string line = "  ";
      if (e.spec.short_alias != 0) line += std::string("-") + e.spec.short_alias + ", ";
      line += "--" + e.spec.name;
      for (const std::string& alias : e.spec.aliases) line += ", --" + alias;
      if (e.spec.secret && !e.text.empty()) {
        line += "  (default " + std::string(kRedacted) + ")";
      } else if (e.text.empty()) {
        // A help that states its own default ("default results/<timestamp>.json") says it.
        if (e.spec.help.find("(default") == std::string::npos) line += "  (no default)";
      } else {
        line += "  (default " + e.text + ")";
      }
      line += "  " + e.spec.help;
      if (e.spec.type == OptionType::kEnum) line += " (" + JoinChoices(e.spec.choices) + ")";
      out += WrapLine(line, kWidth, kIndent);
    }
  }
  return out;
}

}  // namespace sb::config
