#include "session/load_dry_run.h"

#include <sys/stat.h>

#include <cstdio>
#include <filesystem>

#include "backend/db/storage_space.h"
#include "base/units.h"

namespace sb::session {
namespace {

std::string Gb(int64_t bytes) { return FormatDecimalBytes(static_cast<double>(bytes)); }

// The directory --csv_dir names, or its nearest existing parent (the load creates it).
std::string ExistingDir(const std::string& dir) {
  std::filesystem::path p = std::filesystem::absolute(dir).lexically_normal();
  std::error_code ec;
  while (!p.empty() && !std::filesystem::exists(p, ec) && p != p.root_path()) p = p.parent_path();
  return p.string();
}

bool SameFileSystem(const std::string& a, const std::string& b) {
  struct stat sa {};
  struct stat sb {};
  return ::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0 && sa.st_dev == sb.st_dev;
}

}  // namespace

Result<LoadDryRun> PlanLoadDryRun(const workload::Workload& workload, db::DbBackend& backend,
                                  const workload::LoadContext& ctx) {
  auto plan = workload.PlanLoad(ctx);
  if (!plan.ok()) return plan.status();
  LoadDryRun out;
  out.text = plan->text;

  db::StorageSpace server;
  if (plan->server_bytes > 0) {
    auto space = backend.FreeSpace();
    if (!space.ok()) return space.status();
    server = std::move(space).value();
  }
  db::StorageSpace csv;
  if (plan->csv_bytes > 0) csv = db::SpaceOfDirectory(ExistingDir(ctx.csv_dir));
  const bool shared = server.known && csv.known && SameFileSystem(server.where, csv.where);

  if (plan->server_bytes > 0) {
    if (!server.known) {
      out.text += "space for the database: cannot tell (" + server.why_unknown + ")\n";
    } else {
      // A load with --force drops what the database holds before it writes.
      const int64_t have = server.free_bytes + (ctx.force ? server.used_bytes : 0);
      const int64_t need = plan->server_bytes + (shared ? plan->csv_bytes : 0);
      out.text += "space for the database: " + Gb(server.free_bytes) + " free in " + server.where +
                  (ctx.force && server.used_bytes > 0
                       ? " (+ " + Gb(server.used_bytes) + " the database holds, replaced)"
                       : std::string()) +
                  (shared ? "; the CSV files go to the same file system" : "") + "\n";
      if (have < need) {
        out.refusal = Status::FailedPrecondition(
            "load --dry_run: the load needs about " + Gb(need) + " in " + server.where +
            ", which has " + Gb(have) + "; free space there or choose a smaller --db_size");
        return out;
      }
    }
  }
  if (plan->csv_bytes > 0 && !shared) {
    if (!csv.known) {
      out.text += "space for the CSV files: cannot tell (" + csv.why_unknown + ")\n";
    } else {
      out.text += "space for the CSV files: " + Gb(csv.free_bytes) + " free in " + csv.where + "\n";
      if (csv.free_bytes < plan->csv_bytes) {
        out.refusal = Status::FailedPrecondition(
            "load --dry_run: the CSV files need about " + Gb(plan->csv_bytes) + " in " + csv.where +
            ", which has " + Gb(csv.free_bytes) + "; free space there or choose another --csv_dir");
      }
    }
  }
  return out;
}

}  // namespace sb::session
