// Small text helpers shared by the parsers of human-written input (access specifications, ICF
// files).
#ifndef STOREBENCH_BASE_STRINGS_H_
#define STOREBENCH_BASE_STRINGS_H_

#include <string>
#include <string_view>
#include <vector>

namespace sb {

// `s` without leading and trailing white space.
std::string Trim(std::string_view s);
// The parts of `s` between `sep`s, each trimmed ("a, b," → {"a", "b", ""}).
std::vector<std::string> SplitTrimmed(std::string_view s, char sep);
// ASCII lower case.
std::string Lower(std::string_view s);
// ASCII case-insensitive comparisons.
bool EqualsNoCase(std::string_view a, std::string_view b);
bool StartsWithNoCase(std::string_view s, std::string_view prefix);
// `s` for quoting in a message: whole when at most `max_chars` long, else its first `max_chars`
// characters and "..." (and how long it is), so a huge bad input does not become a huge message;
// control characters are written \xNN.
std::string QuotablePrefix(std::string_view s, size_t max_chars);

}  // namespace sb

#endif  // STOREBENCH_BASE_STRINGS_H_
