#include "workload/soe/swingbench_config.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstring>
#include <pugixml.hpp>
#include <string_view>
#include <vector>

#include "base/input_file.h"
#include "base/limits.h"
#include "base/strings.h"
#include "workload/soe/soe_model.h"

namespace sb::soe {
namespace {

std::string_view LocalName(const pugi::xml_node& n) {
  std::string_view name = n.name();
  const size_t colon = name.find(':');
  return colon == std::string_view::npos ? name : name.substr(colon + 1);
}

pugi::xml_node Child(const pugi::xml_node& n, std::string_view local) {
  for (pugi::xml_node c = n.first_child(); c; c = c.next_sibling()) {
    if (c.type() == pugi::node_element && LocalName(c) == local) return c;
  }
  return {};
}

std::string Text(const pugi::xml_node& n) {
  std::string t = n.text().get();
  const size_t b = t.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  const size_t e = t.find_last_not_of(" \t\r\n");
  return t.substr(b, e - b + 1);
}

class Reader {
 public:
  Reader(const std::string& path, std::string_view content, config::OptionSet* options)
      : path_(path), content_(content), options_(options) {}

  int LineOf(ptrdiff_t offset) const {
    if (offset < 0) return 0;
    const size_t end = std::min(content_.size(), static_cast<size_t>(offset));
    return 1 + static_cast<int>(std::count(content_.begin(), content_.begin() + end, '\n'));
  }
  std::string Origin(const pugi::xml_node& n) const {
    return path_ + ":" + std::to_string(LineOf(n.offset_debug()));
  }
  // Sets `option` from element `n`'s text, when the command declares the option.
  Status Set(const std::string& option, const std::string& value, const pugi::xml_node& n) {
    if (!options_->Has(option)) return Status::Ok();
    return options_->Set(option, value, Origin(n));
  }
  Status SetFrom(const pugi::xml_node& parent, const char* element, const std::string& option) {
    pugi::xml_node n = Child(parent, element);
    if (!n) return Status::Ok();
    return Set(option, Text(n), n);
  }
  void NotHonoured(std::string what) { notes_.push_back(std::move(what)); }
  const std::vector<std::string>& notes() const { return notes_; }
  // "h:mm" or "h:mm:ss" (Swingbench's RunTime and StatsCollection*; charbench writes both) in
  // seconds; -1 when malformed.
  static int64_t Seconds(const std::string& text) {
    int64_t parts[3] = {0, 0, 0};
    int n = 0;
    size_t digits = 0;
    for (const char c : text) {
      if (c == ':') {
        if (digits == 0 || ++n > 2) return -1;
        digits = 0;
      } else if (c >= '0' && c <= '9' && digits < 6) {
        parts[n] = parts[n] * 10 + (c - '0');
        ++digits;
      } else {
        return -1;
      }
    }
    if (n == 0 || digits == 0) return -1;
    return parts[0] * 3600 + parts[1] * 60 + (n == 2 ? parts[2] : 0);
  }
  // Java's Boolean.parseBoolean, as Swingbench reads its flags: "true" in any case, else false.
  static bool JavaBoolean(const std::string& text) {
    if (text.size() != 4) return false;
    const char* t = "true";
    for (size_t i = 0; i < 4; ++i) {
      if (std::tolower(static_cast<unsigned char>(text[i])) != t[i]) return false;
    }
    return true;
  }
  Result<int64_t> SecondsOf(const pugi::xml_node& n) const {
    const int64_t m = Seconds(Text(n));
    if (m < 0) {
      return Status::InvalidArgument(std::string(LocalName(n)) + " '" +
                                     QuotablePrefix(Text(n), limits::kMaxQuotedChars) +
                                     "' is not a time h:mm or h:mm:ss (" + Origin(n) + ")");
    }
    return m;
  }
  static int64_t IntOr(const std::string& text, int64_t fallback) {
    if (text.empty() || text.size() > 12) return fallback;
    char* end = nullptr;
    const int64_t v = std::strtoll(text.c_str(), &end, 10);  // NOLINT(google-runtime-int)
    return *end == '\0' ? v : fallback;
  }

  Status Read(const pugi::xml_node& root);

 private:
  Status ReadConnection(const pugi::xml_node& c);
  void ReadPooling(const pugi::xml_node& pooling);
  // After the whole file: NumberOfUsers and PooledMaxLimit may come in either order.
  Status ApplyPooling();
  Status ReadLoad(const pugi::xml_node& load);
  Status ReadTransactions(const pugi::xml_node& list);
  static std::string ClassFamily(const std::string& class_name);
  static std::string VariantOfFamily(const std::string& family);
  // Swingbench's Order Entry class families (others are other benchmarks' classes).
  static bool IsOrderEntryFamily(const std::string& family) {
    return family.find("orderentry") != std::string::npos || family == "plsqltransactions" ||
           family == "transactions";
  }
  // --soe_variant from the listed classes' families, unless the command line gave it before
  // the file; a family storebench does not reproduce, or a mix, is refused unless the command
  // line chooses (Configure).
  Status ChooseVariant(const pugi::xml_node& list, const std::vector<std::string>& families,
                       bool v2_class, const pugi::xml_node& first_foreign);
  Status ReadPreferences(const pugi::xml_node& p);

  const std::string& path_;
  std::string_view content_;
  config::OptionSet* options_;
  std::vector<std::string> notes_;
  pugi::xml_node users_node_;  // Load/NumberOfUsers
  pugi::xml_node pool_max_;    // Connection/ConnectionPooling/PooledMaxLimit
};

Status Reader::Read(const pugi::xml_node& root) {
  // Swingbench does not retry: a timeout or deadlock is a failed transaction at once. A
  // --retries before the file wins; one after it wins anyway.
  if (options_->Has("retries") && !options_->IsSet("retries")) {
    SB_RETURN_IF_ERROR(options_->Set("retries", "0", path_));
  }
  for (pugi::xml_node n = root.first_child(); n; n = n.next_sibling()) {
    if (n.type() != pugi::node_element) continue;
    const std::string_view name = LocalName(n);
    if (name == "Name") {
      SB_RETURN_IF_ERROR(Set("soe_config_name", Text(n), n));
    } else if (name == "Comment") {
      // Free text, kept with the file.
    } else if (name == "Connection") {
      SB_RETURN_IF_ERROR(ReadConnection(n));
    } else if (name == "Load") {
      SB_RETURN_IF_ERROR(ReadLoad(n));
    } else if (name == "Preferences") {
      SB_RETURN_IF_ERROR(ReadPreferences(n));
    } else {
      NotHonoured(std::string(name) + " (not a setting storebench knows)");
    }
  }
  return ApplyPooling();
}

Status Reader::ReadConnection(const pugi::xml_node& c) {
  for (pugi::xml_node n = c.first_child(); n; n = n.next_sibling()) {
    if (n.type() != pugi::node_element) continue;
    const std::string_view name = LocalName(n);
    // Values are left out: a connect string or password is not echoed.
    if (name == "ConnectString" || name == "UserName" || name == "DriverType") {
      NotHonoured("Connection/" + std::string(name) + " (storebench connects to --db)");
    } else if (name == "Password") {
      NotHonoured(
          "Connection/Password (passwords come from the environment or the client's own "
          "files, never a configuration file)");
    } else if (name == "Properties") {
      NotHonoured("Connection/Properties (JDBC properties)");
    } else if (name == "ConnectionPooling") {
      ReadPooling(n);
    } else {
      NotHonoured("Connection/" + std::string(name));
    }
  }
  return Status::Ok();
}

// A pool smaller than the users becomes --soe_users (the users) and --n_threads (the pool's
// connections, all opened at the start); one as large as the users is a connection per user.
void Reader::ReadPooling(const pugi::xml_node& pooling) {
  pool_max_ = Child(pooling, "PooledMaxLimit");
  const std::string max = Text(pool_max_);
  for (pugi::xml_node n = pooling.first_child(); n; n = n.next_sibling()) {
    if (n.type() != pugi::node_element) continue;
    const std::string_view name = LocalName(n);
    if (name == "PooledMaxLimit") continue;
    if ((name == "PooledInitialLimit" || name == "PooledMinLimit") && Text(n) == max) continue;
    NotHonoured("Connection/ConnectionPooling/" + std::string(name) +
                " (the pool opens PooledMaxLimit connections at the start and keeps them)");
  }
}

Status Reader::ApplyPooling() {
  if (!users_node_) return Status::Ok();
  const int64_t users = IntOr(Text(users_node_), 0);
  const int64_t pool = pool_max_ ? IntOr(Text(pool_max_), 0) : 0;
  if (pool < 1 || pool >= users) return Set("n_threads", Text(users_node_), users_node_);
  SB_RETURN_IF_ERROR(Set("soe_users", std::to_string(users), users_node_));
  return Set("n_threads", std::to_string(pool), pool_max_);
}

Status Reader::ReadLoad(const pugi::xml_node& load) {
  static constexpr std::string_view kKnown[] = {"NumberOfUsers",
                                                "MinDelay",
                                                "MaxDelay",
                                                "InterMinDelay",
                                                "InterMaxDelay",
                                                "QueryTimeout",
                                                "MaxTransactions",
                                                "RunTime",
                                                "LogonGroupCount",
                                                "LogonDelay",
                                                "LogOutPostTransaction",
                                                "WaitTillAllLogon",
                                                "StatsCollectionStart",
                                                "StatsCollectionEnd",
                                                "ConnectionRefresh",
                                                "TransactionList",
                                                "EnvironmentVariables"};
  for (pugi::xml_node n = load.first_child(); n; n = n.next_sibling()) {
    if (n.type() != pugi::node_element) continue;
    if (std::find(std::begin(kKnown), std::end(kKnown), LocalName(n)) == std::end(kKnown)) {
      NotHonoured("Load/" + std::string(LocalName(n)) + " (" + Origin(n) +
                  ": not a setting storebench knows)");
    }
  }
  const pugi::xml_node users_node = Child(load, "NumberOfUsers");
  users_node_ = users_node;
  int64_t users = 1;
  // n_threads is set once the whole file is read (ApplyPooling): the users are connections
  // only without a smaller pool, so 5000 users on a pool of 80 are not 5000 connections.
  if (users_node) users = std::max<int64_t>(1, IntOr(Text(users_node), 1));
  SB_RETURN_IF_ERROR(SetFrom(load, "MinDelay", "min_delay"));
  SB_RETURN_IF_ERROR(SetFrom(load, "MaxDelay", "max_delay"));
  SB_RETURN_IF_ERROR(SetFrom(load, "InterMinDelay", "inter_min_delay"));
  SB_RETURN_IF_ERROR(SetFrom(load, "InterMaxDelay", "inter_max_delay"));
  SB_RETURN_IF_ERROR(SetFrom(load, "QueryTimeout", "query_timeout"));
  if (pugi::xml_node n = Child(load, "MaxTransactions")) {
    const int64_t max = IntOr(Text(n), 0);
    if (max > 0) {
      const int64_t per_user = (max + users - 1) / users;
      SB_RETURN_IF_ERROR(Set("units_per_thread", std::to_string(per_user), n));
      if (per_user * users != max) {
        NotHonoured("Load/MaxTransactions " + std::to_string(max) + " exactly (each of " +
                    std::to_string(users) + " users stops after " + std::to_string(per_user) +
                    " transactions)");
      }
    }
  }
  // The measured window: StatsCollectionStart is the warm-up; the run ends at
  // StatsCollectionEnd when given, else at RunTime (0:0 = until stopped).
  int64_t run = 0, start = 0, end = 0;
  const pugi::xml_node run_node = Child(load, "RunTime");
  if (run_node) {
    auto m = SecondsOf(run_node);
    if (!m.ok()) return m.status();
    run = *m;
  }
  if (pugi::xml_node n = Child(load, "StatsCollectionStart")) {
    auto m = SecondsOf(n);
    if (!m.ok()) return m.status();
    start = *m;
  }
  if (pugi::xml_node n = Child(load, "StatsCollectionEnd")) {
    auto m = SecondsOf(n);
    if (!m.ok()) return m.status();
    end = *m;
  }
  const int64_t stop = end > 0 && (run == 0 || end < run) ? end : run;
  if (stop > 0 && stop <= start) {
    return Status::InvalidArgument("StatsCollectionStart is at or after the end of the run (" +
                                   path_ + ")");
  }
  SB_RETURN_IF_ERROR(Set("warmup_time", std::to_string(start) + "s", run_node ? run_node : load));
  SB_RETURN_IF_ERROR(Set("run_time", std::to_string(stop > 0 ? stop - start : 0) + "s",
                         run_node ? run_node : load));
  if (end > 0 && run > end) {
    NotHonoured(
        "Load/RunTime beyond StatsCollectionEnd (the run stops at the end of the "
        "statistics window)");
  }
  // Logon groups: LogonGroupCount groups, LogonDelay ms apart, as a connection rate.
  const int64_t delay = IntOr(Text(Child(load, "LogonDelay")), 0);
  const int64_t groups = std::max<int64_t>(1, IntOr(Text(Child(load, "LogonGroupCount")), 1));
  if (pugi::xml_node n = Child(load, "LogonDelay")) {
    const int64_t group_size = (users + groups - 1) / groups;
    const int64_t rate =
        delay <= 0 ? 1000000
                   : std::max<int64_t>(1, group_size * 1000 / std::max<int64_t>(1, delay));
    SB_RETURN_IF_ERROR(Set("ramp_rate", std::to_string(rate), n));
  }
  if (pugi::xml_node n = Child(load, "WaitTillAllLogon"); n && !JavaBoolean(Text(n))) {
    NotHonoured(
        "Load/WaitTillAllLogon false (storebench starts every user together once all "
        "are connected)");
  }
  if (pugi::xml_node n = Child(load, "LogOutPostTransaction"); n && JavaBoolean(Text(n))) {
    NotHonoured("Load/LogOutPostTransaction (each user keeps its connection)");
  }
  if (pugi::xml_node n = Child(load, "ConnectionRefresh"); n && IntOr(Text(n), 0) != 0) {
    NotHonoured("Load/ConnectionRefresh (each user keeps its connection)");
  }
  if (pugi::xml_node list = Child(load, "TransactionList")) {
    SB_RETURN_IF_ERROR(ReadTransactions(list));
  }
  if (pugi::xml_node env = Child(load, "EnvironmentVariables")) {
    std::string keys;
    for (pugi::xml_node v = env.first_child(); v; v = v.next_sibling()) {
      if (v.type() != pugi::node_element) continue;
      keys += std::string(keys.empty() ? "" : ", ") + v.attribute("Key").value();
    }
    if (!keys.empty()) {
      NotHonoured("Load/EnvironmentVariables " + keys + " (storebench's data files are built in)");
    }
  }
  return Status::Ok();
}

Status Reader::ReadTransactions(const pugi::xml_node& list) {
  // Only the listed transactions run: the others get weight 0.
  std::array<std::string, kNumTx> weights;
  std::array<pugi::xml_node, kNumTx> where;
  std::array<pugi::xml_node, kNumTx> seen;
  weights.fill("0");
  std::vector<std::string> families;  // each listed ClassName's family, in order
  bool v2_class = false;
  pugi::xml_node first_foreign;
  for (pugi::xml_node t = list.first_child(); t; t = t.next_sibling()) {
    if (t.type() != pugi::node_element) continue;
    if (LocalName(t) != "Transaction") {
      NotHonoured("Load/TransactionList/" + std::string(LocalName(t)) + " (" + Origin(t) +
                  ": not a setting storebench knows)");
      continue;
    }
    for (pugi::xml_node c = t.first_child(); c; c = c.next_sibling()) {
      if (c.type() != pugi::node_element) continue;
      const std::string_view name = LocalName(c);
      if (name != "Id" && name != "ShortName" && name != "ClassName" && name != "Weight" &&
          name != "Enabled") {
        NotHonoured("Transaction/" + std::string(name) + " (" + Origin(c) +
                    ": not a setting storebench knows)");
      }
    }
    const std::string class_name = Text(Child(t, "ClassName"));
    const std::string short_name = Text(Child(t, "ShortName"));
    if (!class_name.empty()) {
      const std::string family = ClassFamily(class_name);
      if (std::find(families.begin(), families.end(), family) == families.end()) {
        families.push_back(family);
      }
      if (VariantOfFamily(family).empty() && !first_foreign) first_foreign = t;
      v2_class = v2_class ||
                 (class_name.size() > 2 && class_name.compare(class_name.size() - 2, 2, "V2") == 0);
    }
    // A ClassName decides: a class of another benchmark is not found by a short name that
    // happens to be Order Entry's (Calling Circle has its own UCD).
    int tx = class_name.empty()                            ? TxFromShortName(short_name)
             : IsOrderEntryFamily(ClassFamily(class_name)) ? TxFromClassName(class_name)
                                                           : -1;
    if (tx < 0) {
      return Status::InvalidArgument(
          "transaction '" + QuotablePrefix(Text(Child(t, "Id")), limits::kMaxQuotedChars) +
          "' (class '" + QuotablePrefix(class_name, limits::kMaxQuotedChars) +
          "') is not one of Order Entry's (" + Origin(t) + ")");
    }
    if (seen[tx]) {
      return Status::InvalidArgument("transaction " + std::string(InfoOf(tx).short_name) +
                                     " is listed twice (" + Origin(seen[tx]) + " and " + Origin(t) +
                                     ")");
    }
    seen[tx] = t;
    // Swingbench reads Enabled with Java's Boolean.parseBoolean.
    const pugi::xml_node enabled = Child(t, "Enabled");
    const pugi::xml_node weight = Child(t, "Weight");
    weights[tx] = enabled && !JavaBoolean(Text(enabled)) ? "0" : weight ? Text(weight) : "1";
    where[tx] = weight ? weight : t;
  }
  for (int tx = 0; tx < kNumTx; ++tx) {
    SB_RETURN_IF_ERROR(Set(InfoOf(tx).option, weights[tx], where[tx] ? where[tx] : list));
  }
  return ChooseVariant(list, families, v2_class, first_foreign);
}

// The family of a ClassName: its package, "orderentryplsql" of
// com.dom.benchmarking.swingbench.benchmarks.orderentryplsql.BrowseProducts.
std::string Reader::ClassFamily(const std::string& class_name) {
  const size_t last = class_name.rfind('.');
  if (last == std::string::npos || last == 0) return class_name;
  const size_t before = class_name.rfind('.', last - 1);
  return class_name.substr(before == std::string::npos ? 0 : before + 1,
                           last - (before == std::string::npos ? 0 : before + 1));
}

// The --soe_variant a class family runs; "" for a family storebench does not reproduce.
// orderentryplsql serves both of Swingbench 2.5-2.7's server-side configurations: V2
// (NewCustomerProcessV2, UpdateCustomerDetailsV2) calls the package those versions install;
// the V1 classes call the earlier one, whose constants are the 2011 package's ("plsql2?" is
// decided by ChooseVariant). plsqltransactions is Swingbench 2.3-2.4's server-side family,
// which shipped the 2011 package.
std::string Reader::VariantOfFamily(const std::string& family) {
  if (family == "orderentryplsql") return "plsql2?";
  if (family == "plsqltransactions") return "plsql20";
  if (family == "orderentryjdbc") return "jdbc";
  return "";
}

Status Reader::ChooseVariant(const pugi::xml_node& list, const std::vector<std::string>& families,
                             bool v2_class, const pugi::xml_node& first_foreign) {
  if (!options_->Has("soe_variant") || families.empty()) return Status::Ok();
  std::string variant;
  std::string refusal;
  if (first_foreign) {
    refusal = "its class '" +
              QuotablePrefix(Text(Child(first_foreign, "ClassName")), limits::kMaxQuotedChars) +
              "' (" + Origin(first_foreign) +
              ") is of a family whose steps storebench does not reproduce";
  } else if (families.size() > 1) {
    std::string names;
    for (const std::string& f : families) names += (names.empty() ? "" : ", ") + f;
    refusal = "its transactions mix the class families " + names + " (" + Origin(list) + ")";
  } else {
    variant = VariantOfFamily(families[0]);
    if (variant == "plsql2?") variant = v2_class ? "plsql21" : "plsql20";
  }
  if (options_->IsSet("soe_variant")) return Status::Ok();  // the command line chose
  if (!refusal.empty()) {
    // Refused in Configure unless a --soe_variant after the file chooses.
    return Set("soe_config_variant_refusal", refusal, list);
  }
  SB_RETURN_IF_ERROR(Set("soe_variant", variant, list));
  // "<variant>|<why>": Configure tells the file's choice from a later command-line one.
  return Set("soe_config_variant_reason",
             variant + "|chosen by the configuration's " + families[0] + " classes" +
                 (families[0] == "orderentryplsql"
                      ? std::string(v2_class ? " (V2: NewCustomerProcessV2 or "
                                               "UpdateCustomerDetailsV2)"
                                             : " (V1: no V2 class)")
                      : std::string()),
             list);
}

Status Reader::ReadPreferences(const pugi::xml_node& p) {
  for (pugi::xml_node n = p.first_child(); n; n = n.next_sibling()) {
    if (n.type() != pugi::node_element) continue;
    const std::string_view name = LocalName(n);
    if (name == "TimingsIncludeSleep") {
      SB_RETURN_IF_ERROR(Set("timings_include_sleep", JavaBoolean(Text(n)) ? "Y" : "N", n));
    } else if (name == "RefreshRate") {
      SB_RETURN_IF_ERROR(Set("log_freq", Text(n), n));
    } else if (name == "TimingsIn") {
      if (Text(n) != "milliseconds") {
        NotHonoured("Preferences/TimingsIn (storebench reports milliseconds)");
      }
    } else if (name == "OutputFile") {
      NotHonoured("Preferences/OutputFile (the result goes to --json, Swingbench's results file to --results_xml)");
    } else if (name == "AllowedErrorCodes") {
      NotHonoured("Preferences/AllowedErrorCodes (Oracle error numbers)");
    } else if (name == "StatisticsLevel" || name == "StartMode" || name == "Output" ||
               name == "JumpToEvents" || name == "Charts" || name == "OverviewCharts") {
      // storebench always keeps full latency histograms; the rest are the GUI's own settings.
    } else {
      NotHonoured("Preferences/" + std::string(name));
    }
  }
  return Status::Ok();
}

}  // namespace

Status ReadSwingbenchConfig(const std::string& path, config::OptionSet* options) {
  auto content = ReadInputPrefix(path, "config file", limits::kMaxConfigFileBytes);
  if (!content.ok()) return content.status();
  if (content->size() > limits::kMaxConfigFileBytes) {
    return Status::InvalidArgument("config file '" + path + "' is larger than " +
                                   std::to_string(limits::kMaxConfigFileBytes) + " bytes");
  }
  pugi::xml_document doc;
  const pugi::xml_parse_result parsed =
      doc.load_buffer(content->data(), content->size(), pugi::parse_default);
  Reader reader(path, *content, options);
  if (!parsed) {
    return Status::InvalidArgument("config file '" + path +
                                   "' is not well-formed XML: " + parsed.description() + " (" +
                                   path + ":" + std::to_string(reader.LineOf(parsed.offset)) + ")");
  }
  const pugi::xml_node root = doc.document_element();
  if (LocalName(root) != "SwingBenchConfiguration") {
    return Status::InvalidArgument("config file '" + path +
                                   "' is XML but not a Swingbench "
                                   "configuration (its root element is '" +
                                   QuotablePrefix(root.name(), limits::kMaxQuotedChars) +
                                   "', not SwingBenchConfiguration)");
  }
  SB_RETURN_IF_ERROR(reader.Read(root));
  std::string notes;
  for (const std::string& n : reader.notes()) notes += (notes.empty() ? "" : "; ") + n;
  if (!notes.empty() && options->Has("soe_config_not_honoured")) {
    SB_RETURN_IF_ERROR(options->Set("soe_config_not_honoured", notes, path));
  }
  return Status::Ok();
}

}  // namespace sb::soe
