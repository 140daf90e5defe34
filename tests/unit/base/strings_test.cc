#include "base/strings.h"

#include <gtest/gtest.h>

namespace sb {
namespace {

TEST(StringsTest, TrimSplitLowerCompare) {
  EXPECT_EQ(Trim(" \t a b \r\n"), "a b");
  EXPECT_EQ(SplitTrimmed(" a, b ,", ','), (std::vector<std::string>{"a", "b", ""}));
  EXPECT_EQ(SplitTrimmed("", ','), (std::vector<std::string>{""}));
  EXPECT_EQ(Lower("VMTN-4K"), "vmtn-4k");
  EXPECT_TRUE(EqualsNoCase("'END test setup", "'End Test Setup"));
  EXPECT_FALSE(EqualsNoCase("abc", "abcd"));
  EXPECT_TRUE(StartsWithNoCase("'Ramp Up Time (s)", "'ramp up time"));
  EXPECT_FALSE(StartsWithNoCase("'Ramp", "'Ramp Up"));
}

TEST(StringsTest, QuotablePrefixIsShortAndPrintable) {
  EXPECT_EQ(QuotablePrefix("short", 10), "short");
  EXPECT_EQ(QuotablePrefix(std::string(50, 'a'), 3), "aaa... (50 bytes)");
  EXPECT_EQ(QuotablePrefix(std::string("a\0\tb", 4), 10), "a\\x00\\x09b");
}

TEST(StringsTest, WrapLineBreaksAtSpacesWithinTheWidth) {
  EXPECT_EQ(WrapLine("  --a  (default 1)  short help", 100, 6), "  --a  (default 1)  short help\n");
  EXPECT_EQ(WrapLine("  --a  one two three", 12, 4), "  --a  one\n    two\n    three\n");
  // Exactly the width fits; a word longer than a line stays whole on its own line.
  EXPECT_EQ(WrapLine("abc def", 7, 2), "abc def\n");
  EXPECT_EQ(WrapLine("ab averyveryverylongword cd", 8, 2), "ab\n  averyveryverylongword\n  cd\n");
  // Columns are characters, not bytes.
  EXPECT_EQ(WrapLine("\u2264\u2264\u2264 \u2264\u2264", 6, 0), "\u2264\u2264\u2264 \u2264\u2264\n");
  EXPECT_EQ(TextColumns("a\u2264b"), 3u);
}

// Issue #20: text from DriverConfig files and ICF names reached the terminal with its escape
// sequences intact.
TEST(StringsTest, EscapeForTerminalMakesControlCharactersVisible) {
  EXPECT_EQ(EscapeForTerminal("plain text, UTF-8 \u00e9\u2713"), "plain text, UTF-8 \u00e9\u2713");
  EXPECT_EQ(EscapeForTerminal("\x1b]0;owned\x07\x1b[2J"), "\\x1b]0;owned\\x07\\x1b[2J");
  EXPECT_EQ(EscapeForTerminal("a\rb\tc\x7f"), "a\\rb\\tc\\x7f");
  EXPECT_EQ(EscapeForTerminal("two\nlines"), "two\\nlines");
  EXPECT_EQ(EscapeForTerminal("two\nlines", /*keep_newlines=*/true), "two\nlines");
  // C1 controls as UTF-8 (U+009B is CSI), stray and truncated bytes.
  EXPECT_EQ(EscapeForTerminal(std::string("\xc2\x9b") + "31m"), "\\u009b31m");
  EXPECT_EQ(EscapeForTerminal(std::string("\x9b") + "31m"), "\\x9b31m");
  EXPECT_EQ(EscapeForTerminal("end\xe2\x9c"), "end\\xe2\\x9c");
  EXPECT_EQ(EscapeForTerminal("\xc0\x80"), "\\xc0\\x80");  // overlong NUL
  EXPECT_EQ(EscapeForTerminal(std::string("nul\0", 4)), "nul\\x00");
}

TEST(StringsTest, MarkupEscapeWritesEverySpecialCharacterAsAReference) {
  EXPECT_EQ(MarkupEscape("a&b<c>d\"e'f"), "a&amp;b&lt;c&gt;d&quot;e&#39;f");
  EXPECT_EQ(MarkupEscape("plain \xe2\x9c\x93 text"), "plain \xe2\x9c\x93 text");
  EXPECT_EQ(MarkupEscape("&amp;"), "&amp;amp;");  // no reference is left as it was
}

}  // namespace
}  // namespace sb
