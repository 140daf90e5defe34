// FragmentFile: the checks, then the chain of methods (fragment.h); the methods themselves are
// in fragment_rounds.cc and fragment_copy.cc.
#include "backend/fs/fragment.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "backend/fs/fragment_internal.h"

namespace sb::fs {
namespace {

struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

// What the method did, for the result's choices.
std::string MethodWords(FragmentMethod m) {
  switch (m) {
    case FragmentMethod::kMoveExt:
      return "move_ext: blocks spread over the data area are moved one by one into blocks "
             "preallocated in a donor file (EXT4_IOC_MOVE_EXT, the data copied by the kernel), "
             "then fdatasync; repeated until FIEMAP counts the target";
    case FragmentMethod::kPunch:
      return "punch: blocks spread over the data area are read, punched out "
             "(FALLOC_FL_PUNCH_HOLE) and written back with the same bytes, 256 per batch, then "
             "fdatasync; repeated until FIEMAP counts the target";
    case FragmentMethod::kCopy:
      return "copy: the file is copied into a new file beside it with a spare block at each "
             "cut point spread over the data area, the spare blocks are cut out "
             "(FALLOC_FL_COLLAPSE_RANGE: each cut splits an extent), and the synced copy is "
             "renamed over the file";
    case FragmentMethod::kAuto:
      break;
  }
  return "";
}

}  // namespace

const char* FragmentMethodName(FragmentMethod m) {
  switch (m) {
    case FragmentMethod::kAuto:
      return "auto";
    case FragmentMethod::kMoveExt:
      return "move_ext";
    case FragmentMethod::kPunch:
      return "punch";
    case FragmentMethod::kCopy:
      return "copy";
  }
  return "";
}

std::optional<FragmentMethod> ParseFragmentMethod(std::string_view name) {
  for (FragmentMethod m : {FragmentMethod::kAuto, FragmentMethod::kMoveExt, FragmentMethod::kPunch,
                           FragmentMethod::kCopy}) {
    if (name == FragmentMethodName(m)) return m;
  }
  return std::nullopt;
}

int64_t MaxFragmentExtents(uint64_t region_bytes, uint64_t block_size) {
  if (block_size == 0) return 0;
  return static_cast<int64_t>(region_bytes / block_size);
}

std::string DescribeAttempts(const std::vector<FragmentAttempt>& attempts) {
  std::string s;
  for (const FragmentAttempt& a : attempts) {
    if (!s.empty()) s += "; ";
    s += a.method + " " + a.status + ": " + a.why;
    if (a.status == "reached" || a.status == "short" || a.status == "refused") {
      s += " (" + std::to_string(a.before) + " -> " + std::to_string(a.after) + " extents)";
    }
  }
  return s;
}

Result<FragmentResult> FragmentFile(const FragmentOptions& o, const FileSystemInfo& fs,
                                    const std::function<void(const std::string&)>& progress) {
  if (fs.read_only) {
    return Status::FailedPrecondition("'" + o.path + "' is on a read-only mount (" +
                                      fs.mount_point + "), so it cannot be fragmented");
  }
  const uint64_t block = fs.block_size > 0 ? fs.block_size : 4096;
  if (o.region_start % block != 0 || o.region_bytes < 4 * block) {
    return Status::InvalidArgument("the region of '" + o.path + "' to fragment is too small or " +
                                   "not aligned to the file system's " + std::to_string(block) +
                                   "-byte blocks");
  }
  const uint64_t blocks = o.region_bytes / block;
  const int64_t most = MaxFragmentExtents(o.region_bytes, block);
  if (o.target_extents < 1 || o.target_extents > most) {
    return Status::InvalidArgument("--extents " + std::to_string(o.target_extents) +
                                   " is out of reach for '" + o.path + "': its " +
                                   std::to_string(blocks) + " blocks of " + std::to_string(block) +
                                   " bytes allow 1 to " + std::to_string(most) + " extents");
  }
  const bool forced = o.method != FragmentMethod::kAuto;
  if (o.method == FragmentMethod::kMoveExt && fs.type != "ext4") {
    return Status::FailedPrecondition("--method move_ext needs ext4 (EXT4_IOC_MOVE_EXT), and '" +
                                      o.path + "' is on " + fs.type +
                                      "; use --method punch, copy or auto");
  }
  Fd f;
  f.fd = ::open(o.path.c_str(), O_RDWR | O_CLOEXEC | O_NOFOLLOW);
  if (f.fd < 0) {
    return Status::IoError("cannot open '" + o.path + "': " + internal::ErrnoText(errno));
  }
  auto first = MeasureOpenFile(f.fd, o.path, fs);
  if (!first.ok()) return first.status();
  FragmentResult r;
  r.before = r.after = first->extents;
  const double slack = internal::Slack(o);
  if (static_cast<double>(r.after) > static_cast<double>(o.target_extents) + slack) {
    progress("'" + o.path + "' already has " + std::to_string(r.after) + " extents, more than " +
             "the " + std::to_string(o.target_extents) + " asked for; left as it is");
    return r;
  }
  const std::vector<FragmentMethod> chain =
      forced ? std::vector<FragmentMethod>{o.method}
             : std::vector<FragmentMethod>{FragmentMethod::kMoveExt, FragmentMethod::kPunch,
                                           FragmentMethod::kCopy};
  StatusCode refusal_code = StatusCode::kFailedPrecondition;  // IoError once one is refused here
  bool any_ran = false;
  for (size_t i = 0; i < chain.size(); ++i) {
    const FragmentMethod m = chain[i];
    FragmentAttempt a;
    a.method = FragmentMethodName(m);
    a.before = a.after = r.after;
    if (r.reached) {
      a.status = "not_needed";
      a.why = r.method + " reached the target";
      r.attempts.push_back(std::move(a));
      continue;
    }
    if (m == FragmentMethod::kMoveExt && fs.type != "ext4") {
      a.status = "not_applicable";
      a.why = "EXT4_IOC_MOVE_EXT is ext4's, and the file is on " + fs.type;
      r.attempts.push_back(std::move(a));
      continue;
    }
    auto run = m == FragmentMethod::kCopy
                   ? internal::FragmentByCopy(o, fs, r.after, progress)
                   : internal::FragmentInRounds(o, fs, f.fd, m == FragmentMethod::kMoveExt, r.after,
                                                progress);
    if (!run.ok()) return run.status();
    a.after = run->after;
    a.rounds = run->rounds;
    a.blocks = run->blocks;
    a.why = run->why;
    r.after = run->after;
    r.rounds += run->rounds;
    r.blocks_refilled += run->blocks;
    const bool replaced = run->new_lock != nullptr;  // copy: the path names the copy now
    if (replaced) r.new_lock = std::move(run->new_lock);
    if (run->refused) {
      a.status = "refused";
      if (run->code != StatusCode::kFailedPrecondition) refusal_code = StatusCode::kIoError;
      r.attempts.push_back(std::move(a));
      const std::string& why = r.attempts.back().why;
      if (forced) {
        return Status(run->code, "io fragment --method " + std::string(FragmentMethodName(m)) +
                                     " on '" + o.path + "': " + why +
                                     "; every block keeps its data (--method auto falls back "
                                     "to the next method)");
      }
      progress(std::string(FragmentMethodName(m)) + " on '" + o.path + "': " + why +
               (i + 1 < chain.size()
                    ? "; falling back to " + std::string(FragmentMethodName(chain[i + 1]))
                    : ""));
      continue;
    }
    any_ran = true;
    // A copy that came out no closer to the target left the file as it was.
    if (m != FragmentMethod::kCopy || replaced) {
      r.method = FragmentMethodName(m);
      r.how = MethodWords(m);
    }
    r.reached = std::fabs(static_cast<double>(r.after - o.target_extents)) <= slack;
    a.status = r.reached ? "reached" : "short";
    r.attempts.push_back(std::move(a));
    if (!r.reached && !forced && i + 1 < chain.size()) {
      progress(std::string(FragmentMethodName(m)) + " stopped short at " + std::to_string(r.after) +
               " extents (target " + std::to_string(o.target_extents) + "); trying " +
               FragmentMethodName(chain[i + 1]));
    }
  }
  if (!any_ran) {
    return Status(refusal_code, "io fragment cannot fragment '" + o.path + "' here: " +
                                    DescribeAttempts(r.attempts) + "; every block keeps its data");
  }
  return r;
}

}  // namespace sb::fs
