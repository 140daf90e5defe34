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

// The columns `s` takes on a terminal: its UTF-8 code points (the help texts hold no wide
// characters).
size_t TextColumns(std::string_view s);
// One line of text broken at spaces into lines of at most `width` columns; every line after the
// first starts with `indent` spaces. A word longer than a line stays whole (an option name or a
// URL must stay searchable). Each line ends with '\n'.
std::string WrapLine(std::string_view line, size_t width, size_t indent);

// `s` made safe to print on a terminal. Text from files and command lines (DriverConfig lines,
// ICF specification names, paths) may carry control characters, and a terminal acts on them:
// ESC and CSI start ECMA-48 control sequences that move the cursor, recolour or retitle the
// window, and '\r' overwrites the line. Every C0 control, DEL, C1 control (U+0080..U+009F) and
// byte that is not part of valid UTF-8 is written as a visible escape ("\t", "\r", "\n",
// "\x1b", "\u009b"); other text, UTF-8 included, is unchanged. With `keep_newlines`, '\n' stays
// (messages of several lines).
std::string EscapeForTerminal(std::string_view s, bool keep_newlines = false);

// `s` as text of an HTML or XML document, in an element or a quoted attribute: &, <, >, " and '
// as their character references; everything else unchanged.
std::string MarkupEscape(std::string_view s);

}  // namespace sb

#endif  // STOREBENCH_BASE_STRINGS_H_
