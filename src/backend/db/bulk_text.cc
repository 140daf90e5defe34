#include "backend/db/bulk_text.h"

#include "backend/db/db.h"

namespace sb::db {

void AppendTabSeparatedField(std::string* out, std::string_view v) {
  if (v == kBulkNull) {
    *out += "\\N";
    return;
  }
  for (char c : v) {
    switch (c) {
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
      case '\0':
        *out += "\\0";
        break;
      default:
        *out += c;
    }
  }
}

}  // namespace sb::db
