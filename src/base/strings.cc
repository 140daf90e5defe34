#include "base/strings.h"

#include <cctype>
#include <cstdint>
#include <cstdio>

namespace sb {
namespace {

char LowerChar(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

// The length of the valid UTF-8 sequence starting at s[i] and its code point, or 0 when the
// bytes there are not valid UTF-8 (stray continuation byte, truncated or overlong sequence,
// surrogate, beyond U+10FFFF). RFC 3629, section 4.
size_t Utf8Sequence(std::string_view s, size_t i, uint32_t* code_point) {
  const auto b = [&](size_t k) { return static_cast<unsigned char>(s[i + k]); };
  const unsigned char lead = b(0);
  size_t n = 0;
  uint32_t cp = 0;
  if (lead >= 0xC2 && lead <= 0xDF) {
    n = 2;
    cp = lead & 0x1F;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    n = 3;
    cp = lead & 0x0F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    n = 4;
    cp = lead & 0x07;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    if ((b(k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b(k) & 0x3F);
  }
  const uint32_t min = n == 2 ? 0x80 : n == 3 ? 0x800 : 0x10000;
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  *code_point = cp;
  return n;
}

void AppendEscape(std::string* out, const char* format, unsigned value) {
  char buf[8];
  std::snprintf(buf, sizeof buf, format, value);
  *out += buf;
}

}  // namespace

std::string Trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

std::vector<std::string> SplitTrimmed(std::string_view s, char sep) {
  std::vector<std::string> out;
  size_t from = 0;
  for (;;) {
    const size_t at = s.find(sep, from);
    out.push_back(Trim(s.substr(from, at == std::string_view::npos ? at : at - from)));
    if (at == std::string_view::npos) return out;
    from = at + 1;
  }
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = LowerChar(c);
  return out;
}

bool EqualsNoCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (LowerChar(a[i]) != LowerChar(b[i])) return false;
  }
  return true;
}

bool StartsWithNoCase(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && EqualsNoCase(s.substr(0, prefix.size()), prefix);
}

size_t TextColumns(std::string_view s) {
  size_t n = 0;
  for (const char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1 : 0;
  return n;
}

std::string WrapLine(std::string_view line, size_t width, size_t indent) {
  // The leading blanks belong to the first word (an option line's "  --name").
  size_t pos = line.find_first_not_of(' ');
  if (pos == std::string_view::npos) return std::string(line) + "\n";
  std::string out(line.substr(0, pos));
  size_t columns = pos;
  bool first_word = true;
  while (pos < line.size()) {
    const size_t word_begin = line.find_first_not_of(' ', pos);
    if (word_begin == std::string_view::npos) break;  // trailing blanks
    size_t word_end = line.find(' ', word_begin);
    if (word_end == std::string_view::npos) word_end = line.size();
    const std::string_view gap = line.substr(pos, word_begin - pos);
    const std::string_view word = line.substr(word_begin, word_end - word_begin);
    const size_t word_columns = TextColumns(word);
    if (first_word || columns + gap.size() + word_columns <= width) {
      out += gap;
      columns += gap.size();
    } else {
      out += '\n';
      out.append(indent, ' ');
      columns = indent;
    }
    out += word;
    columns += word_columns;
    first_word = false;
    pos = word_end;
  }
  return out + "\n";
}

std::string QuotablePrefix(std::string_view s, size_t max_chars) {
  // Control bytes (a NUL from /dev/zero would end the printed message) are shown as \xNN.
  std::string out;
  for (char c : s.substr(0, max_chars)) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) {
      static constexpr char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[u >> 4];
      out += kHex[u & 15];
    } else {
      out += c;
    }
  }
  if (s.size() > max_chars) out += "... (" + std::to_string(s.size()) + " bytes)";
  return out;
}

std::string EscapeForTerminal(std::string_view s, bool keep_newlines) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      if (c == '\n' && keep_newlines) {
        out += '\n';
      } else if (c == '\n') {
        out += "\\n";
      } else if (c == '\t') {
        out += "\\t";
      } else if (c == '\r') {
        out += "\\r";
      } else if (c < 0x20 || c == 0x7F) {
        AppendEscape(&out, "\\x%02x", c);
      } else {
        out += static_cast<char>(c);
      }
      ++i;
      continue;
    }
    uint32_t cp = 0;
    const size_t n = Utf8Sequence(s, i, &cp);
    if (n == 0) {
      AppendEscape(&out, "\\x%02x", c);
      ++i;
    } else if (cp <= 0x9F) {
      AppendEscape(&out, "\\u%04x", cp);
      i += n;
    } else {
      out.append(s.substr(i, n));
      i += n;
    }
  }
  return out;
}

std::string MarkupEscape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace sb
