#include "backend/db/bulk_text.h"

#include "storebench/db.h"

namespace sb::db {
namespace {

bool IsReserved(char c) {
  // All five are below ' ' except the backslash: one compare settles printable text.
  return static_cast<unsigned char>(c) < ' ' ? (c == '\t' || c == '\n' || c == '\r' || c == '\0')
                                             : c == '\\';
}

}  // namespace

void AppendTabSeparatedField(std::string* out, std::string_view v) {
  if (v == kBulkNull) {
    *out += "\\N";
    return;
  }
  // Generated text almost never holds a reserved character: copy the runs between them whole
  // (appending byte by byte was the client's largest cost after the generator's own).
  size_t start = 0;
  while (start < v.size()) {
    size_t stop = start;
    while (stop < v.size() && !IsReserved(v[stop])) ++stop;
    out->append(v.data() + start, stop - start);
    if (stop == v.size()) return;
    switch (v[stop]) {
      case '\\':
        *out += "\\\\";
        break;
      case '\t':
        *out += "\\t";
        break;
      case '\n':
        *out += "\\n";
        break;
      case '\r':
        *out += "\\r";
        break;
      default:
        *out += "\\0";
    }
    start = stop + 1;
  }
}

}  // namespace sb::db
