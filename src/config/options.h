// Typed options, declared once by their owner (driver, workload, back end) with a default and a
// help line, then filled from the command line and DVD Store DriverConfig files, applied left to
// right (later wins), and echoed as JSON into every result.
#ifndef STOREBENCH_CONFIG_OPTIONS_H_
#define STOREBENCH_CONFIG_OPTIONS_H_

#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "storebench/status.h"

namespace sb::config {

enum class OptionType {
  kInt,     // whole non-negative number: decimal digits only (no sign, no blanks)
  kDouble,  // decimal number: digits with an optional '.', exponent and leading '-'
  kBool,    // Y/N, yes/no, true/false, 1/0; a bare --flag on the command line means Y
  kString,
  kDuration,  // "90s", "2m"; a bare number is in `bare_unit_nanos` (DVD Store: minutes)
  kEnum,      // one of `choices` (compared case-insensitively, stored as the choice's spelling)
  kDbSize,    // DVD Store size: S, M, L, or <int>MB / <int>GB (stored upper-case, e.g. "20GB")
};

// Declared with designated initializers (`{.name = "seed", .type = OptionType::kInt, ...}`);
// every member has a default, so a declaration names only what differs.
struct OptionSpec {
  std::string name{};                  // canonical name, e.g. "n_threads"
  std::vector<std::string> aliases{};  // modern spellings, e.g. "threads"
  OptionType type = OptionType::kString;
  std::string default_value{};  // as text, parsed like user input
  std::string help{};
  std::string group{};                   // heading in --help ("driver", "dvdstore", ...)
  int64_t bare_unit_nanos = 1000000000;  // kDuration only
  // kDuration only: the bare unit when the option is set through one of its aliases, 0 = the
  // same as `bare_unit_nanos`. DVD Store's run_time counts minutes, its modern spellings
  // (--duration, sysbench's --time) seconds: one name, one unit.
  int64_t alias_bare_unit_nanos = 0;
  // kDuration only: when not empty, a bare number is refused with this advice (a name whose
  // unit differs between the tools that use it, e.g. warmup_time: DS3 minutes, sysbench seconds).
  std::string bare_number_refused{};
  std::vector<std::string> choices{};  // kEnum only
  // Limits, inclusive, checked by Set (bad input, never a silent clamp or wrap): kInt values
  // and kDuration values (in nanoseconds) lie in [min, max], kDouble values in
  // [min_double, max_double]. With `zero_is_off`, 0 is accepted too ("0 = off").
  int64_t min = 0;
  int64_t max = INT64_MAX;
  double min_double = 0;
  double max_double = std::numeric_limits<double>::max();
  bool zero_is_off = false;
  // kBool only: only "Y" and "N" as written are taken (a peer tool's switch that compares its
  // value with "Y", so that "y" would silently mean N there).
  bool y_or_n_only = false;
  bool secret = false;  // never echoed (shown as "<redacted>")
  // When not empty, setting the option is refused with this advice, whatever the value (a
  // peer tool's option storebench must not take, e.g. a password on the command line).
  // Written bare (`--name`), a refused option is refused too, not asked for a value.
  std::string refusal{};
  bool repeatable = false;  // kString only: a second setting appends ",value"
  // A one-letter spelling written with one dash (`-o FILE`), as a peer tool's users type it.
  char short_alias = 0;
};

class OptionSet {
 public:
  // Declares an option. REQUIRES: the name and aliases are not declared yet (a programming
  // error aborts), and the default parses.
  void Add(OptionSpec spec);
  bool Has(std::string_view name_or_alias) const;
  // The spec of a declared option, or nullptr. Dashes and underscores are equivalent; with
  // `ignore_case`, letter case is too (DVD Store DriverConfig keys). An exact match wins over a
  // case-insensitive one.
  const OptionSpec* FindSpec(std::string_view name_or_alias, bool ignore_case = false) const;
  // The spec whose `short_alias` is `letter`, or nullptr.
  const OptionSpec* FindShort(char letter) const;
  // The command named in unknown-option messages, e.g. "storebench oltp run --help"
  // (default "--help").
  void set_help_command(std::string command) { help_command_ = std::move(command); }

  // Sets an option from user text. `origin` is for messages ("command line",
  // "DriverConfig.txt:7"). Unknown names and unparsable values are InvalidArgument with one
  // sentence naming the option, the value and the origin.
  Status Set(std::string_view name_or_alias, std::string_view value, std::string_view origin);
  // The error Set gives for a name that is not declared: one sentence, a near spelling when
  // there is one, and the help command.
  Status UnknownOption(std::string_view name, std::string_view origin) const;

  // A reader for XML files given to --config_file (a workload's own configuration format, e.g.
  // Swingbench's): ParseCommandLine hands it a file whose first non-blank character is '<',
  // and it sets options as the command line would. Without one, such a file is refused.
  using ConfigFileReader = Status (*)(const std::string& path, OptionSet* options);
  void set_xml_config_reader(ConfigFileReader reader) { xml_config_reader_ = reader; }
  ConfigFileReader xml_config_reader() const { return xml_config_reader_; }

  // Sets each option of this set that `from` declares with the same type and has set (from a
  // command line, a file, a plan), to from's value, but those named in `except`: the options
  // two commands share, taken from the one that read them (a plan's load from its run).
  Status SetFrom(const OptionSet& from, const std::vector<std::string>& except,
                 std::string_view origin);

  // Typed access by canonical name. REQUIRES: declared with that type (else aborts).
  int64_t GetInt(std::string_view name) const;
  double GetDouble(std::string_view name) const;
  bool GetBool(std::string_view name) const;
  const std::string& GetString(std::string_view name) const;  // kString, kEnum, kDbSize
  int64_t GetDurationNanos(std::string_view name) const;
  // True when the user set the option (not just the default).
  bool IsSet(std::string_view name) const;

  // The effective configuration as a JSON object text: {"name": value, ...} with numbers as
  // numbers, booleans as booleans, durations as seconds, secrets as "<redacted>".
  std::string ToJson() const;
  // DVD Store's settings echo: "name=value name=value ..." in declaration order, for the
  // console: control characters in values are escaped (EscapeForTerminal).
  std::string EchoLine() const;
  // One option's value as EchoLine shows it ("3s", "Y", "1MB"; a secret redacted).
  std::string Text(std::string_view name) const;
  // Help text, grouped, one option per line with aliases, default and help.
  std::string HelpText() const;

 private:
  struct Entry {
    OptionSpec spec;
    std::string text;  // current value as normalized text
    int64_t int_value = 0;
    double double_value = 0;
    bool set = false;
  };
  const Entry& Find(std::string_view name, OptionType type) const;
  const Entry& FindAny(std::string_view name) const;
  const Entry* Lookup(std::string_view name_or_alias, bool ignore_case) const;
  std::vector<Entry> entries_;             // declaration order
  std::map<std::string, size_t> by_name_;  // canonical names and aliases, '-' written as '_'
  std::string help_command_ = "--help";
  ConfigFileReader xml_config_reader_ = nullptr;
};

// Parses command-line arguments (after the subcommand words). Accepts --name=value,
// --name value, and bare --flag for booleans. `--config_file=PATH` (alias --config-file) reads a
// DriverConfig file at that point in the order. Dashes and underscores in names are equivalent.
// Anything not starting with "--" is InvalidArgument.
Status ParseCommandLine(const std::vector<std::string>& args, OptionSet* options);

// What a command takes besides its options (compare's files, report's inputs, exec's command,
// the options consolidate hands on to its instances). Everything else is parsed as above.
struct CommandLineShape {
  // Arguments that are not options are collected in order instead of refused. One starting
  // with '-' (other than "-" itself and a declared short alias) is still an unknown option.
  bool positionals = false;
  // A lone "--" ends the options: everything after it is collected, unparsed.
  bool rest_after_dashes = false;
  // Unknown options are collected as written, with the words that follow them up to the next
  // option, in order (for another OptionSet to parse), instead of refused. Also --config_file
  // when the set does not declare it.
  bool pass_unknown = false;
  // Without positionals: the advice after "unexpected argument 'WORD'".
  const char* unexpected_advice = "options are written --name=value or --name value";
};
struct CommandLineRest {
  std::vector<std::string> positionals;
  bool dashes = false;  // a lone "--" was given
  std::vector<std::string> after_dashes;
  std::vector<std::string> passed;  // with pass_unknown
};
Status ParseCommandLine(const std::vector<std::string>& args, OptionSet* options,
                        const CommandLineShape& shape, CommandLineRest* rest);

// Reads a DVD Store DriverConfig.txt: one name=value per line; blank lines and lines starting
// with '#' are ignored; surrounding whitespace is trimmed; the value may contain '='. A line
// without '=' or an unknown name is InvalidArgument naming "<path>:<line>".
Status ParseDriverConfigFile(const std::string& path, OptionSet* options);

}  // namespace sb::config

#endif  // STOREBENCH_CONFIG_OPTIONS_H_
