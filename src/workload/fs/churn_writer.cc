#include "workload/fs/churn_writer.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

namespace sb::fsload {

ChurnOp ChooseChurnOp(uint64_t pick, size_t data_files) {
  if (data_files < 2 || pick < 5) return ChurnOp::kNewFile;
  if (pick < 45) return ChurnOp::kAppend;
  if (pick < 60) return ChurnOp::kExtend;
  if (pick < 95) return ChurnOp::kLog;
  return ChurnOp::kDelete;
}

ChurnWriter::ChurnWriter(std::string dir, uint64_t budget, uint64_t seed)
    : dir_(std::move(dir)), budget_(budget), rng_(seed) {}

Status ChurnWriter::Prepare() {
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  if (ec) return Status::IoError("cannot create '" + dir_ + "': " + ec.message());
  // Random contents, so a compressing or deduplicating file system stores what was written.
  buf_.assign(8u << 20, 0);
  Random fill(rng_.Next64());
  for (size_t i = 0; i + 8 <= buf_.size(); i += 8) {
    const uint64_t v = fill.Next64();
    std::memcpy(&buf_[i], &v, 8);
  }
  return Status::Ok();
}

ChurnStep ChurnWriter::Step() {
  ChurnStep step;
  const uint64_t pick = Pick(100);
  step.op = ChooseChurnOp(pick, data_.size());
  switch (step.op) {
    case ChurnOp::kNewFile:
      NewDataFile(&step);
      break;
    case ChurnOp::kAppend:
      Append(data_[Pick(data_.size())], 4096 * (1 + Pick(256)), buf_, ++appends_ % 8 == 0, &step);
      break;
    case ChurnOp::kExtend:
      Extend(data_[Pick(data_.size())], (1 + Pick(8)) << 20, &step);
      break;
    case ChurnOp::kLog:
      Log(4096 * (1 + Pick(16)), &step);
      break;
    case ChurnOp::kDelete:
      Delete(Pick(data_.size()), &step);
      break;
  }
  while (Used() > budget_ && data_.size() > 1) Delete(0, &step);
  return step;
}

uint64_t ChurnWriter::Used() const {
  uint64_t n = 0;
  for (const File& f : data_) n += f.size;
  for (const File& f : logs_) n += f.size;
  return n;
}

void ChurnWriter::Error(ChurnStep* step, const std::string& what) {
  ++step->errors;
  if (step->first_error.empty()) step->first_error = what;
}

bool ChurnWriter::Write(const std::string& path, uint64_t off, uint64_t len,
                        const std::vector<uint8_t>& buf, bool sync, ChurnStep* step) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) {
    Error(step, "cannot open " + path + ": " + std::strerror(errno));
    return false;
  }
  bool ok = true;
  for (uint64_t done = 0; done < len && ok;) {
    const size_t n = static_cast<size_t>(std::min<uint64_t>(len - done, buf.size()));
    const ssize_t w = ::pwrite(fd, buf.data(), n, static_cast<off_t>(off + done));
    if (w <= 0) {
      Error(step, "cannot write " + path + ": " + std::strerror(errno));
      ok = false;
      break;
    }
    done += static_cast<uint64_t>(w);
  }
  if (ok && sync) ::fdatasync(fd);
  ::close(fd);
  if (ok) step->bytes_written += len;
  return ok;
}

void ChurnWriter::NewDataFile(ChurnStep* step) {
  data_.push_back({dir_ + "/data" + std::to_string(next_++) + ".db", 0});
  static const std::vector<uint8_t> zeros(1 << 20);
  Append(data_.back(), 1 << 20, zeros, true, step);
}

void ChurnWriter::Append(File& f, uint64_t len, const std::vector<uint8_t>& buf, bool sync,
                         ChurnStep* step) {
  if (Write(f.path, f.size, len, buf, sync, step)) f.size += len;
}

void ChurnWriter::Extend(File& f, uint64_t len, ChurnStep* step) {
  const int fd = ::open(f.path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd >= 0) {
    (void)::fallocate(fd, 0, static_cast<off_t>(f.size), static_cast<off_t>(len));
    ::close(fd);
  }
  Append(f, len, buf_, true, step);
}

void ChurnWriter::Log(uint64_t len, ChurnStep* step) {
  if (logs_.empty() || logs_.back().size >= (16u << 20)) {
    logs_.push_back({dir_ + "/log" + std::to_string(next_++) + ".log", 0});
    while (logs_.size() > 4) {
      ::unlink(logs_.front().path.c_str());
      logs_.erase(logs_.begin());
      ++step->files_deleted;
    }
  }
  Append(logs_.back(), len, buf_, true, step);
}

void ChurnWriter::Delete(uint64_t i, ChurnStep* step) {
  if (i >= data_.size()) return;
  ::unlink(data_[i].path.c_str());
  data_.erase(data_.begin() + static_cast<std::ptrdiff_t>(i));
  ++step->files_deleted;
}

}  // namespace sb::fsload
