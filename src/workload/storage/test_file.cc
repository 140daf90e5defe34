#include "workload/storage/test_file.h"

#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <system_error>
#include <vector>

#include "base/input_file.h"

namespace sb::storage {
namespace {

constexpr size_t kMarkerBlock = 4096;
constexpr size_t kFillChunk = 1 << 20;

std::string ErrnoText(int err) { return std::error_code(err, std::generic_category()).message(); }

// RAII file descriptor.
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

void* AlignedAlloc(size_t n) { return std::aligned_alloc(4096, n); }

std::map<std::string, std::string> ParseMarker(const char* block, size_t n) {
  std::map<std::string, std::string> kv;
  if (n < sizeof(kMarker) - 1 || std::memcmp(block, kMarker, sizeof(kMarker) - 1) != 0) return kv;
  std::string text(block, strnlen(block, n));
  size_t pos = sizeof(kMarker) - 1;
  while (pos < text.size()) {
    const size_t nl = text.find('\n', pos);
    const std::string line = text.substr(pos, nl == std::string::npos ? nl : nl - pos);
    const size_t eq = line.find('=');
    if (eq != std::string::npos) kv[line.substr(0, eq)] = line.substr(eq + 1);
    if (nl == std::string::npos) break;
    pos = nl + 1;
  }
  kv["_marker"] = "1";
  return kv;
}

std::string MarkerText(const PrepareOptions& o, const char* state) {
  std::string t = kMarker;
  t += "state=" + std::string(state) + "\n";
  t += "data_offset=" + std::to_string(kHeaderBytes) + "\n";
  t += "data_bytes=" + std::to_string(o.data_bytes) + "\n";
  t += "pattern=" + std::string(DataPatternName(o.pattern)) + "\n";
  t += "seed=" + std::to_string(o.seed) + "\n";
  t += "note=created by storebench io prepare; storebench overwrites the data area of this file\n";
  return t;
}

Status WriteAll(int fd, const uint8_t* p, size_t n, uint64_t off, const std::string& path) {
  while (n > 0) {
    const ssize_t w = ::pwrite(fd, p, n, static_cast<off_t>(off));
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return Status::IoError("cannot write '" + path + "': " + ErrnoText(errno));
    p += w;
    n -= static_cast<size_t>(w);
    off += static_cast<uint64_t>(w);
  }
  return Status::Ok();
}

Status WriteMarker(int fd, const PrepareOptions& o, const char* state) {
  std::unique_ptr<uint8_t, decltype(&std::free)> block(
      static_cast<uint8_t*>(AlignedAlloc(kMarkerBlock)), &std::free);
  std::memset(block.get(), 0, kMarkerBlock);
  const std::string text = MarkerText(o, state);
  std::memcpy(block.get(), text.data(), std::min(text.size(), kMarkerBlock - 1));
  return WriteAll(fd, block.get(), kMarkerBlock, 0, o.path);
}

// Mount sources and holders in /proc/mounts and /sys naming `dev` (e.g. "loop0", "vda").
std::string BlockDeviceInUse(const std::string& path) {
  std::error_code ec;
  const std::string real = std::filesystem::canonical(path, ec).string();
  const std::string name = std::filesystem::path(real).filename().string();
  std::ifstream mounts("/proc/mounts");
  std::string src, mnt, rest;
  while (mounts >> src >> mnt && std::getline(mounts, rest)) {
    std::error_code e2;
    const std::string src_real = std::filesystem::canonical(src, e2).string();
    if (!e2 && (src_real == real || src_real.rfind(real, 0) == 0)) {
      return "it (or a partition of it) is mounted on " + mnt;
    }
  }
  const std::filesystem::path sys = "/sys/class/block/" + name;
  if (std::filesystem::exists(sys / "holders", ec) &&
      !std::filesystem::is_empty(sys / "holders", ec)) {
    return "another device (LVM, RAID, dm-crypt) holds it";
  }
  for (const auto& e : std::filesystem::directory_iterator(sys, ec)) {
    const std::string n = e.path().filename().string();
    if (n.rfind(name, 0) == 0 && n != name && std::filesystem::exists(e.path() / "partition")) {
      return "it has partitions (" + n + ")";
    }
  }
  return "";
}

}  // namespace

Result<DataPattern> ParseDataPattern(std::string_view text) {
  if (text == "repeating" || text == "repeating_bytes") return DataPattern::kRepeating;
  if (text == "pseudo_random" || text == "pseudo-random") return DataPattern::kPseudoRandom;
  if (text == "full_random" || text == "full-random" || text == "random") {
    return DataPattern::kFullRandom;
  }
  return Status::InvalidArgument("unknown data pattern '" + std::string(text) +
                                 "' (use repeating, pseudo_random or full_random)");
}

const char* DataPatternName(DataPattern p) {
  switch (p) {
    case DataPattern::kRepeating:
      return "repeating";
    case DataPattern::kPseudoRandom:
      return "pseudo_random";
    case DataPattern::kFullRandom:
      return "full_random";
  }
  return "?";
}

void FillPattern(DataPattern p, Random& rng, uint8_t byte, uint8_t* buf, size_t n) {
  if (p == DataPattern::kRepeating) {
    std::memset(buf, byte, n);
    return;
  }
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const uint64_t v = rng.Next64();
    std::memcpy(buf + i, &v, 8);
  }
  if (i < n) {
    const uint64_t v = rng.Next64();
    std::memcpy(buf + i, &v, n - i);
  }
}

std::string DetectSignature(const uint8_t* d, size_t n) {
  auto at = [&](size_t off, const char* magic, size_t len) {
    return off + len <= n && std::memcmp(d + off, magic, len) == 0;
  };
  if (at(0x218, "LVM2 001", 8) || at(0x018, "LVM2 001", 8)) return "LVM2 physical volume";
  if (at(0, "LUKS\xba\xbe", 6)) return "LUKS";
  if (at(0, "XFSB", 4)) return "XFS";
  if (n > 1081 && d[1080] == 0x53 && d[1081] == 0xEF) return "ext2/3/4";
  if (at(65600, "_BHRfS_M", 8)) return "btrfs";
  if (at(4086, "SWAPSPACE2", 10) || at(4086, "SWAP-SPACE", 10)) return "swap";
  if (at(512, "EFI PART", 8)) return "GPT partition table";
  if (n > 511 && d[510] == 0x55 && d[511] == 0xAA) return "MBR partition table or boot sector";
  return "";
}

Result<TargetInfo> InspectTarget(const std::string& path) {
  TargetInfo info;
  info.path = path;
  // O_NONBLOCK so that a FIFO cannot hold the open; fstat then says what was opened.
  Fd f;
  f.fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (f.fd < 0) {
    if (errno == ENOENT) {
      return Status::NotFound("test file '" + path +
                              "' does not exist; create it with "
                              "'storebench io prepare --target " +
                              path + " --size 1GiB'");
    }
    return Status::IoError("cannot open '" + path + "': " + ErrnoText(errno));
  }
  struct stat st {};
  if (::fstat(f.fd, &st) != 0) {
    return Status::IoError("cannot stat '" + path + "': " + ErrnoText(errno));
  }
  if (S_ISBLK(st.st_mode)) {
    info.block_device = true;
    uint64_t bytes = 0;
    if (::ioctl(f.fd, BLKGETSIZE64, &bytes) != 0) {
      return Status::IoError("cannot get the size of '" + path + "': " + ErrnoText(errno));
    }
    info.data_bytes = bytes;
    return info;
  }
  if (!S_ISREG(st.st_mode)) {
    return Status::InvalidArgument("target '" + path + "' is " + FileKind(st.st_mode) +
                                   ", neither a regular file nor a block device");
  }
  char block[kMarkerBlock] = {};
  const ssize_t got = ::pread(f.fd, block, sizeof block - 1, 0);
  const auto kv = ParseMarker(block, got > 0 ? static_cast<size_t>(got) : 0);
  const uint64_t file_size = static_cast<uint64_t>(st.st_size);
  if (!kv.empty() && kv.count("state") && kv.at("state") == "ready" && kv.count("data_bytes")) {
    const uint64_t declared = std::stoull(kv.at("data_bytes"));
    if (file_size >= kHeaderBytes + declared) {
      info.storebench_file = true;
      info.data_start = kHeaderBytes;
      info.data_bytes = declared;
      info.pattern = kv.count("pattern") ? kv.at("pattern") : "";
      return info;
    }
  }
  info.prepare_interrupted = !kv.empty() && kv.count("state") && kv.at("state") == "preparing";
  info.data_start = 0;
  info.data_bytes = file_size;
  return info;
}

Status CheckWritable(const TargetInfo& t, bool force_destroy) {
  if (force_destroy) return Status::Ok();
  if (t.block_device) {
    std::string why = BlockDeviceInUse(t.path);
    if (why.empty()) {
      Fd f;
      f.fd = ::open(t.path.c_str(), O_RDONLY | O_CLOEXEC);
      std::vector<uint8_t> head(68 * 1024);
      const ssize_t got = f.fd >= 0 ? ::pread(f.fd, head.data(), head.size(), 0) : -1;
      const std::string sig = DetectSignature(head.data(), got > 0 ? static_cast<size_t>(got) : 0);
      why = sig.empty() ? "writing destroys whatever the device holds"
                        : "it carries a " + sig + " signature";
    }
    return Status::FailedPrecondition("refusing to write to block device '" + t.path + "': " + why +
                                      "; add --force_destroy to overwrite it");
  }
  if (t.prepare_interrupted) {
    return Status::FailedPrecondition(
        "refusing to write to '" + t.path +
        "': its 'storebench io prepare' was interrupted before the data area was filled "
        "(state=preparing); run 'storebench io prepare --target " +
        t.path + "' with its --size again to finish it, or add --force_destroy");
  }
  if (!t.storebench_file) {
    return Status::FailedPrecondition(
        "refusing to write to '" + t.path +
        "': storebench did not create it (no test-file marker); prepare a test file with "
        "'storebench io prepare', run read-only specifications, or add --force_destroy");
  }
  return Status::Ok();
}

Status PrepareTestFile(const PrepareOptions& o,
                       const std::function<void(const std::string&)>& progress, bool* created) {
  *created = false;
  if (o.data_bytes < kFillChunk) {
    return Status::InvalidArgument("test file size must be at least 1 MiB");
  }
  if (o.data_bytes % 4096 != 0) {
    return Status::InvalidArgument("test file size must be a multiple of 4 KiB");
  }
  auto existing = o.new_file ? Result<TargetInfo>(Status::NotFound("created empty by the caller"))
                             : InspectTarget(o.path);
  if (existing.ok()) {
    if (existing->block_device) {
      return Status::FailedPrecondition("'" + o.path +
                                        "' is a block device; prepare makes test "
                                        "files only (run on the device with --force_destroy)");
    }
    if (existing->storebench_file && existing->data_bytes == o.data_bytes &&
        existing->pattern == DataPatternName(o.pattern) && !o.force_destroy) {
      progress("test file " + o.path + " is already prepared (" + std::to_string(o.data_bytes) +
               " bytes, " + existing->pattern + "); leaving it as it is");
      return Status::Ok();
    }
    if (existing->prepare_interrupted) {
      progress("test file " + o.path + ": the last 'io prepare' was interrupted; preparing again");
    } else if (!existing->storebench_file && !o.force_destroy) {
      return Status::AlreadyExists("refusing to overwrite '" + o.path +
                                   "': storebench did not create it (no test-file marker); "
                                   "choose another path or add --force_destroy");
    }
  } else if (existing.status().code() != StatusCode::kNotFound) {
    return existing.status();
  }
  std::error_code ec;
  const auto parent = std::filesystem::path(o.path).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent, ec);

  Fd f;
  const int base_flags = O_WRONLY | O_CREAT | O_CLOEXEC;
  f.fd = ::open(o.path.c_str(), base_flags | (o.direct ? O_DIRECT : 0), 0644);
  if (f.fd < 0 && o.direct && errno == EINVAL) {
    progress("note: the file system does not support O_DIRECT; filling through the page cache");
    f.fd = ::open(o.path.c_str(), base_flags, 0644);
  }
  if (f.fd < 0) return Status::IoError("cannot create '" + o.path + "': " + ErrnoText(errno));
  // The marker goes first, so even an interrupted prepare leaves a file that is recognisably
  // storebench's (state=preparing: a run refuses it, a new prepare replaces it).
  SB_RETURN_IF_ERROR(WriteMarker(f.fd, o, "preparing"));
  const uint64_t total = kHeaderBytes + o.data_bytes;
  if (::ftruncate(f.fd, static_cast<off_t>(total)) != 0) {
    return Status::IoError("cannot size '" + o.path + "': " + ErrnoText(errno));
  }
  std::unique_ptr<uint8_t, decltype(&std::free)> chunk(
      static_cast<uint8_t*>(AlignedAlloc(kFillChunk)), &std::free);
  Random rng(DeriveSeed(o.seed, {0x7072657061726500ULL}));
  FillPattern(o.pattern, rng, 0xA5, chunk.get(), kFillChunk);
  uint64_t next_report = 1ULL << 30;
  for (uint64_t off = kHeaderBytes; off < total; off += kFillChunk) {
    if (o.stop != nullptr && o.stop->load(std::memory_order_relaxed)) {
      return Status::Cancelled("io prepare of '" + o.path + "' stopped by a signal after " +
                               std::to_string((off - kHeaderBytes) >> 20) + " MiB of " +
                               std::to_string(o.data_bytes >> 20) +
                               " MiB; the file stays marked unfinished (state=preparing) until "
                               "'storebench io prepare' runs on it again");
    }
    if (o.pattern == DataPattern::kFullRandom)
      FillPattern(o.pattern, rng, 0, chunk.get(), kFillChunk);
    const size_t n = static_cast<size_t>(std::min<uint64_t>(kFillChunk, total - off));
    SB_RETURN_IF_ERROR(WriteAll(f.fd, chunk.get(), n, off, o.path));
    if (off - kHeaderBytes + n >= next_report) {
      progress("prepared " + std::to_string((off - kHeaderBytes + n) >> 20) + " MiB of " +
               std::to_string(o.data_bytes >> 20) + " MiB");
      next_report += 1ULL << 30;
    }
  }
  if (::fsync(f.fd) != 0) return Status::IoError("fsync '" + o.path + "': " + ErrnoText(errno));
  SB_RETURN_IF_ERROR(WriteMarker(f.fd, o, "ready"));
  if (::fsync(f.fd) != 0) return Status::IoError("fsync '" + o.path + "': " + ErrnoText(errno));
  *created = true;
  return Status::Ok();
}

}  // namespace sb::storage
