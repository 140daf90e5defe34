#include "cli/command_paths.h"

#include "base/clock.h"
#include "base/strings.h"
#include "cli/app.h"
#include "session/output_paths.h"
#include "storebench/db.h"
#include "workload/dvdstore/csv_ds3.h"
#include "workload/dvdstore/generator.h"

namespace sb::cli {
namespace {

// The --config_file / --config-file arguments, in either spelling (--name=value, --name value).
std::vector<PathUse> ConfigFiles(const std::vector<std::string>& args) {
  std::vector<PathUse> files;
  for (size_t i = 0; i < args.size(); ++i) {
    for (const std::string name : {"--config_file", "--config-file"}) {
      if (args[i].rfind(name + "=", 0) == 0) {
        files.push_back({"the config file", args[i].substr(name.size() + 1)});
      } else if (args[i] == name && i + 1 < args.size()) {
        files.push_back({"the config file", args[i + 1]});
      }
    }
  }
  return files;
}

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
                      const std::vector<std::string>& args) {
  std::vector<PathUse> inputs = ConfigFiles(args), outputs;
  // --db may name several databases (DVD Store 3's target list, "URL1;URL2").
  for (const std::string& one : SplitTrimmed(o.GetString("db"), ';')) {
    auto url = db::ParseDbUrl(one);
    if (!url.ok() || url->scheme != "sqlite") continue;
    // SQLite keeps part of the database in these files next to it (sqlite.org/tempfiles.html).
    inputs.push_back({"the database file", url->database});
    for (const char* suffix : {"-wal", "-shm", "-journal"}) {
      inputs.push_back({std::string("the database's ") + suffix + " file", url->database + suffix});
    }
  }
  if (command == "run") {
    outputs.push_back(ResultFile(o, ".json"));
    outputs.push_back({"--out_filename", o.GetString("out_filename")});
    outputs.push_back({"--op_log", o.GetString("op_log")});
    if (o.Has("series_csv")) outputs.push_back({"--series_csv", o.GetString("series_csv")});
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
  std::vector<PathUse> inputs = ConfigFiles(args), outputs;
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
