// The tab-separated text row format that PostgreSQL's COPY (text) and MySQL's LOAD DATA (default
// settings) both read: fields separated by tabs, rows by newlines, and backslash escapes for the
// characters the format reserves.
#ifndef STOREBENCH_BACKEND_DB_BULK_TEXT_H_
#define STOREBENCH_BACKEND_DB_BULK_TEXT_H_

#include <string>
#include <string_view>

namespace sb::db {

// Appends `v` escaped: backslash, tab, newline, carriage return and NUL become \\ \t \n \r \0.
// (PostgreSQL cannot store NUL in text at all and rejects it either way.) kBulkNull (db.h)
// becomes \N, the format's NULL.
void AppendTabSeparatedField(std::string* out, std::string_view v);

}  // namespace sb::db

#endif  // STOREBENCH_BACKEND_DB_BULK_TEXT_H_
