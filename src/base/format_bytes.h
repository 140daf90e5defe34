// Byte counts in binary units for people to read: the file commands' lines and the choices
// their results record.
#ifndef STOREBENCH_BASE_FORMAT_BYTES_H_
#define STOREBENCH_BASE_FORMAT_BYTES_H_

#include <cstdint>
#include <string>

namespace sb {

// "1.5 GiB", "4.0 KiB", "512 B".
std::string FormatBytesShort(uint64_t bytes);

}  // namespace sb

#endif  // STOREBENCH_BASE_FORMAT_BYTES_H_
