// An output written line by line while a run goes on (DVD Store's --out_filename status CSV),
// held to base/output_file.h's rule: whole or not at all. The lines go to a temporary file beside
// the path; Commit() fsyncs it and renames it over the path. A failed write (a full disk) is
// kept, so that the run can end on it at once (error()), and a stream not committed removes its
// temporary file: no file cut short is left at the path. A path that exists and is not a regular
// file (/dev/stdout, a FIFO) is written into directly, as WriteOutputFile does.
#ifndef STOREBENCH_BASE_OUTPUT_STREAM_H_
#define STOREBENCH_BASE_OUTPUT_STREAM_H_

#include <memory>
#include <string>
#include <string_view>

#include "storebench/status.h"

namespace sb {

class OutputStream {
 public:
  // Creates the temporary file (missing parent directories first). `what` names the output in
  // errors: "cannot write <what> '<path>': <reason>".
  static Result<std::unique_ptr<OutputStream>> Open(const std::string& path, std::string_view what);
  ~OutputStream();
  OutputStream(const OutputStream&) = delete;
  OutputStream& operator=(const OutputStream&) = delete;

  // Writes `text` at once (no buffer: a failure is known when the call returns); after a
  // failure, further text is dropped.
  void Append(std::string_view text);
  // The first failed write, or OK.
  Status error() const;
  // Puts the file in place (after a failed write: removes it and returns the error).
  Status Commit();

 private:
  OutputStream(int fd, std::string path, std::string tmp, std::string what)
      : fd_(fd), path_(std::move(path)), tmp_(std::move(tmp)), what_(std::move(what)) {}
  Status Failure(int err) const;

  int fd_;
  std::string path_;
  std::string tmp_;  // empty when writing into the path directly
  std::string what_;
  int errno_ = 0;
};

}  // namespace sb

#endif  // STOREBENCH_BASE_OUTPUT_STREAM_H_
