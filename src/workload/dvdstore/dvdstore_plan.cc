// DvdStoreWorkload::PlanLoad: `oltp load --dry_run`'s plan (load_plan.h) in words.
#include <cstdio>

#include "base/units.h"
#include "workload/dvdstore/dvdstore_workload.h"
#include "workload/dvdstore/load_plan.h"

namespace sb::dvdstore {
namespace {

std::string Duration(double seconds) {
  char buf[32];
  if (seconds >= 3600) {
    std::snprintf(buf, sizeof buf, "%.1f h", seconds / 3600);
  } else if (seconds >= 600) {
    std::snprintf(buf, sizeof buf, "%.0f min", seconds / 60);
  } else {
    std::snprintf(buf, sizeof buf, "%.0f s", seconds);
  }
  return buf;
}

}  // namespace

Result<workload::Workload::LoadPlan> DvdStoreWorkload::PlanLoad(
    const workload::LoadContext& ctx) const {
  if (opts_.procedures_only) {
    return Status::InvalidArgument(
        "load --dry_run: --procedures_only loads no rows, so there is no plan to show");
  }
  const DataPlan plan = PlanData(opts_.size, ctx.seed, opts_.ds2_mode);
  LoadPlan out;
  out.text = "plan for " + Describe() + " (--dry_run: nothing is written)\n" +
             FormatDataPlan(opts_.size, plan);
  if (!ctx.csv_dir.empty()) {
    // The storebench layout writes exactly the row text; DVD Store 3's layout (--csv_layout)
    // writes the same fields in 43 files, within a few percent of it.
    out.csv_bytes = plan.text_bytes;
    out.text += "CSV files (--csv_dir " + ctx.csv_dir +
                "): " + FormatDecimalBytes(static_cast<double>(out.csv_bytes)) + "\n";
  }
  const LoadReference* ref = ReferenceFor(dialect_);
  if (ref == nullptr) {
    out.text += "disk and time: no load of this back end was measured, so no estimate\n";
    return out;
  }
  auto disk_size = ParseDsSize(ref->disk_size);
  if (!disk_size.ok()) return disk_size.status();
  auto time_size = ParseDsSize(ref->time_size);
  if (!time_size.ok()) return time_size.status();
  // The references were loaded with seed 1, in DVD Store 3's mode.
  const Estimate e =
      Scale(plan, PlanData(*disk_size, 1, false), PlanData(*time_size, 1, false), *ref);
  out.server_bytes = e.server_bytes;
  out.text += "database on disk: about " + FormatDecimalBytes(static_cast<double>(e.server_bytes)) +
              " when loaded, indexes included (write-ahead logs and sort files need more while "
              "it loads)\n";
  const std::string low = Duration(e.seconds_min), high = Duration(e.seconds_max);
  out.text += "time: about " + (low == high ? low : low + " to " + high) +
              " on a machine like the one measured (2 cores)\n";
  out.text += "(disk and time in proportion to the row text of the loads measured: " +
              std::string(ref->source) + ")\n";
  return out;
}

}  // namespace sb::dvdstore
