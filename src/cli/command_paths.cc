#include "cli/command_paths.h"

#include "base/clock.h"
#include "base/strings.h"
#include "cli/app.h"
#include "cli/command_inputs.h"
#include "session/output_paths.h"
#include "storebench/db.h"
#include "workload/dvdstore/csv_ds3.h"
#include "workload/dvdstore/generator.h"

namespace sb::cli {
namespace {

// The result document: --json as given, or the default name in results/ (the name is claimed
// when the result is written; here only the directory matters).
PathUse ResultFile(const config::OptionSet& o, const std::string& default_ext) {
  const std::string json = o.GetString("json");
  if (!json.empty()) return {"--json", json, /*creates_parents=*/true, /*replaces=*/true};
  return {"the result file", "results/" + WallClockLocal(/*compact=*/true) + default_ext,
          /*creates_parents=*/true, /*replaces=*/true};
}

}  // namespace

Status CheckOltpPaths(const std::string& command, const config::OptionSet& o,
                      const std::vector<std::string>& args,
                      const std::vector<PathUse>& more_inputs) {
  std::vector<PathUse> inputs = ConfigFileInputs(args), outputs;
  inputs.insert(inputs.end(), more_inputs.begin(), more_inputs.end());
  // --db may name several databases (DVD Store 3's target list, "URL1;URL2").
  for (const std::string& one : SplitTrimmed(o.GetString("db"), ';')) {
    for (PathUse& f : SqliteInputs(one)) inputs.push_back(std::move(f));
  }
  if (o.Has("power")) {
    for (PathUse& f : PowerInputs(o.GetString("power"))) inputs.push_back(std::move(f));
  }
  if (command == "run") {
    outputs.push_back(ResultFile(o, ".json"));
    outputs.push_back({"--out_filename", o.GetString("out_filename")});
    // A path with a placeholder names each instance's file (session/op_log_paths.h); those
    // are checked once known (CheckRunOptions).
    if (const std::string& op_log = o.GetString("op_log");
        op_log.find("{i}") == std::string::npos && op_log.find("{instance}") == std::string::npos) {
      outputs.push_back({"--op_log", op_log});
    }
    if (o.Has("series_csv")) outputs.push_back({"--series_csv", o.GetString("series_csv")});
    if (o.Has("results_xml")) outputs.push_back({"--results_xml", o.GetString("results_xml")});
  }
  if (command == "load" && o.GetString("workload") == "dvdstore" &&
      !o.GetString("csv_dir").empty()) {
    std::vector<std::string> files;
    if (o.GetString("csv_layout") != "storebench") {  // ds3, ds3_windows
      files = dvdstore::Ds3CsvFiles(o.GetBool("ds2_mode"));
    } else {
      for (dvdstore::Table t : dvdstore::TablesFor(o.GetBool("ds2_mode"))) {
        files.push_back(dvdstore::CsvFileName(t));
      }
    }
    for (const std::string& f : files) {
      outputs.push_back({"--csv_dir", o.GetString("csv_dir") + "/" + f, /*creates_parents=*/true});
    }
  }
  return CheckOutputPaths(inputs, outputs);
}

Status CheckIoPaths(const std::string& command, const config::OptionSet& o,
                    const std::vector<std::string>& args) {
  if (command != "run") return Status::Ok();
  std::vector<PathUse> inputs = ConfigFileInputs(args), outputs;
  if (o.Has("power")) {
    for (PathUse& f : PowerInputs(o.GetString("power"))) inputs.push_back(std::move(f));
  }
  for (const std::string& t : SplitTrimmed(o.GetString("target"), ',')) {
    inputs.push_back({"the --target file", t});
  }
  inputs.push_back({"the --icf file", o.GetString("icf")});
  outputs.push_back(ResultFile(o, "-io.json"));
  outputs.push_back({"--csv", o.GetString("csv")});
  outputs.push_back({"--series_csv", o.GetString("series_csv")});
  return CheckOutputPaths(inputs, outputs);
}

}  // namespace sb::cli
