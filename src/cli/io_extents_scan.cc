#include "cli/io_extents_scan.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>

namespace sb::cli {
namespace {

// Every regular file under `root` on root's own file system (like find -xdev), not following
// symbolic links; unreadable directories are skipped and named.
void Walk(const std::string& root, std::vector<std::string>* files,
          std::vector<std::pair<std::string, std::string>>* errors) {
  struct stat rs {};
  if (::lstat(root.c_str(), &rs) != 0) return;
  std::error_code ec;
  std::filesystem::recursive_directory_iterator it(
      root, std::filesystem::directory_options::skip_permission_denied, ec);
  if (ec) {
    errors->push_back({root, ec.message()});
    return;
  }
  for (auto end = std::filesystem::recursive_directory_iterator(); it != end; it.increment(ec)) {
    if (ec) {
      errors->push_back({it->path().string(), ec.message()});
      ec.clear();
      continue;
    }
    struct stat st {};
    if (::lstat(it->path().c_str(), &st) != 0) continue;
    if (S_ISDIR(st.st_mode) && st.st_dev != rs.st_dev) {
      it.disable_recursion_pending();
      continue;
    }
    if (S_ISREG(st.st_mode)) files->push_back(it->path().string());
  }
}

}  // namespace

// The regular files PATHS name, with the files under each directory when `recursive`.
Status CollectFiles(const std::vector<std::string>& paths, bool recursive,
                    std::vector<std::string>* files, PathErrors* errors) {
  for (const std::string& p : paths) {
    struct stat st {};
    if (::stat(p.c_str(), &st) != 0) {
      return Status::NotFound("'" + p + "' does not exist");
    }
    if (S_ISDIR(st.st_mode)) {
      if (!recursive) {
        return Status::InvalidArgument("'" + p +
                                       "' is a directory; add --recursive to measure the "
                                       "files under it");
      }
      Walk(p, files, errors);
    } else if (S_ISREG(st.st_mode)) {
      files->push_back(p);
    } else {
      return Status::InvalidArgument("'" + p + "' is neither a regular file nor a directory");
    }
  }
  return Status::Ok();
}

// Every file's extent statistics, and its volume's sums.
Status MeasureFiles(const std::vector<std::string>& files, Measured* m, PathErrors* errors) {
  for (const std::string& f : files) {
    struct stat st {};
    if (::stat(f.c_str(), &st) != 0) continue;  // removed meanwhile
    auto vol = m->volumes.find(st.st_dev);
    if (vol == m->volumes.end()) {
      auto info = fs::DescribeFileSystem(f);
      if (!info.ok()) return info.status();
      vol = m->volumes.emplace(st.st_dev, Volume{*info, 0, {}, 0, {}}).first;
    }
    auto s = fs::MeasureFile(f, vol->second.fs);
    if (!s.ok()) {
      // No FIEMAP means no figure for any file of that volume: bad input, said once.
      if (s.status().code() == StatusCode::kFailedPrecondition) return s.status();
      errors->emplace_back(f, s.status().message());
      continue;
    }
    m->rows.push_back({f, st.st_dev, *s});
    Volume& v = vol->second;
    v.rows.push_back(m->rows.size() - 1);
    ++v.files;
    fs::ExtentStats& t = v.sum;
    t.size_bytes += s->size_bytes;
    t.mapped_bytes += s->mapped_bytes;
    t.extents += s->extents;
    t.fs_extents += s->fs_extents;
    t.min_records += s->min_records;
    t.discontinuities += s->discontinuities;
    t.seek_bytes += s->seek_bytes;
    t.unwritten_extents += s->unwritten_extents;
    t.unwritten_bytes += s->unwritten_bytes;
    t.shared_extents += s->shared_extents;
    t.shared_bytes += s->shared_bytes;
    t.other_flagged += s->other_flagged;
    if (s->extents > 0 && (t.min_extent_bytes == 0 || s->min_extent_bytes < t.min_extent_bytes)) {
      t.min_extent_bytes = s->min_extent_bytes;
    }
    t.max_extent_bytes = std::max(t.max_extent_bytes, s->max_extent_bytes);
    // Records against records: a file stored as the fewest maximum-length records, laid end to
    // end or not, is not fragmented; one with more is.
    if (s->fs_extents > std::max<int64_t>(1, s->min_records)) ++v.fragmented_files;
  }
  return Status::Ok();
}

}  // namespace sb::cli
