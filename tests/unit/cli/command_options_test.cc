// The option tables of compare, ab, report, exec and consolidate, and run's --plan: every
// option parses in both forms, bad values and unknown options get OptionSet's messages, and the
// inconsistencies the hand parsers had are gone (compare --force=yes, consolidate's
// --series_csv).
#include "cli/command_options.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace sb::cli {
namespace {

using Args = std::vector<std::string>;

template <typename R>
std::string ErrorOf(const R& r) {
  EXPECT_FALSE(r.ok());
  return r.ok() ? std::string("(accepted)") : r.status().message();
}

TEST(CompareOptionsTest, EveryOptionParsesInBothForms) {
  auto r = ParseCompareArgs({"a.json", "--json", "c.json", "--csv=c.csv", "--normalize", "WEAKEST",
                             "--resamples=200", "--seed", "0", "--force", "--verbose", "b.json"});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_TRUE(r->verbose);
  EXPECT_EQ(r->inputs, (Args{"a.json", "b.json"}));
  EXPECT_EQ(r->json, "c.json");
  EXPECT_EQ(r->csv, "c.csv");
  EXPECT_EQ(r->options.normalize, "weakest");
  EXPECT_EQ(r->options.resamples, 200);
  EXPECT_EQ(r->options.seed, 0u);
  EXPECT_TRUE(r->options.force);
}

TEST(CompareOptionsTest, DefaultsAreThoseOfCompareOptions) {
  auto r = ParseCompareArgs({"A=a/*.json", "B=b/*.json"});
  ASSERT_TRUE(r.ok());
  const report::CompareOptions defaults;
  EXPECT_EQ(r->options.normalize, defaults.normalize);
  EXPECT_EQ(r->options.resamples, defaults.resamples);
  EXPECT_EQ(r->options.seed, defaults.seed);
  EXPECT_FALSE(r->options.force);
  EXPECT_EQ(r->inputs, (Args{"A=a/*.json", "B=b/*.json"}));
}

TEST(CompareOptionsTest, ForceIsABooleanAsEverywhere) {
  // "--force=yes" was an unknown option; only --force and --force=Y were read.
  for (const char* v : {"yes", "Y", "true", "1", "on"}) {
    auto r = ParseCompareArgs({"--force=" + std::string(v), "a.json"});
    ASSERT_TRUE(r.ok()) << v;
    EXPECT_TRUE(r->options.force) << v;
  }
  for (const char* v : {"no", "N", "false", "0"}) {
    auto r = ParseCompareArgs({"--force=" + std::string(v), "a.json"});
    ASSERT_TRUE(r.ok()) << v;
    EXPECT_FALSE(r->options.force) << v;
  }
  EXPECT_EQ(ErrorOf(ParseCompareArgs({"--force=maybe"})),
            "option force: 'maybe' is not Y or N (yes/no, true/false, on/off and 1/0 also work) "
            "(command line)");
}

TEST(CompareOptionsTest, BadValuesAndUnknownOptions) {
  EXPECT_EQ(ErrorOf(ParseCompareArgs({"--normalize=best"})),
            "option normalize: 'best' is not first or weakest (command line)");
  EXPECT_EQ(ErrorOf(ParseCompareArgs({"--resamples", "99"})),
            "option resamples: '99' is below the minimum of 100 (command line)");
  EXPECT_EQ(ErrorOf(ParseCompareArgs({"--resamples=10000001"})),
            "option resamples: '10000001' is above the maximum of 10000000 (command line)");
  EXPECT_EQ(ErrorOf(ParseCompareArgs({"--seed=-1"})),
            "option seed: '-1' is not a whole non-negative number (command line)");
  EXPECT_EQ(ErrorOf(ParseCompareArgs({"--jsn=x"})),
            "unknown option 'jsn' (command line); did you mean 'json'? see storebench compare "
            "--help");
  EXPECT_EQ(ErrorOf(ParseCompareArgs({"a.json", "--json"})),
            "option json needs a value: --json=VALUE or --json VALUE (command line)");
}

TEST(AbOptionsTest, EveryOptionParses) {
  auto r = ParseAbArgs({"--a", "storebench oltp run --db=x", "--b=storebench exec -- true",
                        "--rounds=3", "--between", "sync", "--labels", "off,on", "--dir=d",
                        "--json", "j", "--csv=c", "--normalize=weakest", "--force=true"});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->a, "storebench oltp run --db=x");
  EXPECT_EQ(r->b, "storebench exec -- true");
  EXPECT_EQ(r->rounds, 3);
  EXPECT_EQ(r->between, "sync");
  EXPECT_EQ(r->labels, "off,on");
  EXPECT_EQ(r->dir, "d");
  EXPECT_EQ(r->json, "j");
  EXPECT_EQ(r->csv, "c");
  EXPECT_EQ(r->options.normalize, "weakest");
  EXPECT_TRUE(r->options.force);
  auto d = ParseAbArgs({});
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->rounds, 5);
  EXPECT_EQ(d->labels, "A,B");
  EXPECT_FALSE(d->options.force);
}

TEST(AbOptionsTest, BadValuesAndUnknownOptions) {
  EXPECT_EQ(ErrorOf(ParseAbArgs({"--rounds=0"})),
            "option rounds: '0' is below the minimum of 1 (command line)");
  EXPECT_EQ(ErrorOf(ParseAbArgs({"--rounds=1001"})),
            "option rounds: '1001' is above the maximum of 1000 (command line)");
  EXPECT_EQ(ErrorOf(ParseAbArgs({"--force=perhaps"})),
            "option force: 'perhaps' is not Y or N (yes/no, true/false, on/off and 1/0 also "
            "work) (command line)");
  EXPECT_EQ(ErrorOf(ParseAbArgs({"--round=3"})),
            "unknown option 'round' (command line); did you mean 'rounds'? see storebench ab "
            "--help");
  EXPECT_EQ(ErrorOf(ParseAbArgs({"extra"})),
            "unexpected argument 'extra' (command line); options are written --name=value or "
            "--name value");
}

TEST(ReportOptionsTest, InputsAndOutputInEveryForm) {
  for (const Args& args :
       {Args{"a.json", "-o", "r.html", "b.json"}, Args{"a.json", "--output", "r.html", "b.json"},
        Args{"--output=r.html", "a.json", "b.json"}}) {
    auto r = ParseReportArgs(args);
    ASSERT_TRUE(r.ok()) << r.status().message();
    EXPECT_EQ(r->output, "r.html");
    EXPECT_EQ(r->inputs, (Args{"a.json", "b.json"}));
  }
  EXPECT_EQ(ErrorOf(ParseReportArgs({"a.json", "-x"})),
            "unknown option 'x' (command line); see storebench report --help");
  EXPECT_EQ(ErrorOf(ParseReportArgs({"a.json", "--outptu=r"})),
            "unknown option 'outptu' (command line); did you mean 'output'? see storebench "
            "report --help");
}

TEST(ExecOptionsTest, OptionsBeforeDashesTheCommandAfter) {
  auto r = ParseExecArgs({"--label", "on", "--json=r.json", "--power",
                          "rapl:", "--power=cmd:\"echo 1 W\"", "--series_csv", "s.csv", "--",
                          "make", "--help", "-j8"});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->options.GetString("label"), "on");
  EXPECT_EQ(r->options.GetString("json"), "r.json");
  EXPECT_EQ(r->options.GetString("power"), "rapl:,cmd:\"echo 1 W\"");
  EXPECT_EQ(r->options.GetString("series_csv"), "s.csv");
  EXPECT_EQ(r->command, (Args{"make", "--help", "-j8"}));
  EXPECT_FALSE(AsksForHelp({"--label=x", "--", "make", "--help"}));
  EXPECT_TRUE(AsksForHelp({"--label=x", "-h", "--", "make"}));
}

TEST(ExecOptionsTest, AWordBeforeDashesAndUnknownOptions) {
  EXPECT_EQ(ErrorOf(ParseExecArgs({"ls", "-l"})),
            "unexpected argument 'ls' (command line); the command goes after --");
  EXPECT_EQ(ErrorOf(ParseExecArgs({"--lable=x", "--", "true"})),
            "unknown option 'lable' (command line); did you mean 'label'? see storebench exec "
            "--help");
}

TEST(ConsolidateOptionsTest, SearchOptionsAreReadAndTheRestHandedOn) {
  auto r = ParseConsolidateArgs({"--plan", "p.toml", "--instances=1..4", "--n_threads", "2",
                                 "--runs", "5", "--step=DOUBLING", "--search", "s.json",
                                 "--resume=yes", "--run_series_csv", "--label=x", "--baseline",
                                 "opm>=1@1s-2s", "--csv", "t.csv"});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->csv, "t.csv");
  EXPECT_EQ(r->plan_path, "p.toml");
  EXPECT_EQ(r->instances, "1..4");
  EXPECT_EQ(r->runs, 5);
  EXPECT_EQ(r->step, "doubling");
  EXPECT_EQ(r->search, "s.json");
  EXPECT_TRUE(r->resume);
  EXPECT_TRUE(r->run_series_csv);
  EXPECT_EQ(r->extra, (Args{"--n_threads", "2", "--label=x", "--baseline", "opm>=1@1s-2s"}));
  auto d = ParseConsolidateArgs({"--plan=p.toml"});
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->runs, 3);
  EXPECT_EQ(d->step, "linear");
  EXPECT_FALSE(d->resume);
  EXPECT_FALSE(d->run_series_csv);
  auto off = ParseConsolidateArgs({"--plan=p.toml", "--run_series_csv=N", "--resume=no"});
  ASSERT_TRUE(off.ok());
  EXPECT_FALSE(off->run_series_csv);
  EXPECT_FALSE(off->resume);
}

TEST(ConsolidateOptionsTest, BadValues) {
  EXPECT_EQ(ErrorOf(ParseConsolidateArgs({"--instances=1..2"})),
            "no plan given; add --plan FILE.toml");
  EXPECT_EQ(ErrorOf(ParseConsolidateArgs({"--plan=p", "--runs=100"})),
            "option runs: '100' is above the maximum of 99 (command line)");
  EXPECT_EQ(ErrorOf(ParseConsolidateArgs({"--plan=p", "--step=binary"})),
            "option step: 'binary' is not linear or doubling (command line)");
  EXPECT_EQ(ErrorOf(ParseConsolidateArgs({"--plan=p", "--resume=maybe"})),
            "option resume: 'maybe' is not Y or N (yes/no, true/false, on/off and 1/0 also "
            "work) (command line)");
}

TEST(ConsolidateOptionsTest, SeriesCsvIsRefusedWithTheNewSpelling) {
  // It was a flag, true for anything but "" and "N", where oltp run takes a path.
  for (const Args& args :
       {Args{"--plan=p", "--series_csv"}, Args{"--plan=p", "--series_csv=Y"},
        Args{"--plan=p", "--series_csv", "out.csv"}, Args{"--plan=p", "--series_csv=out.csv"}}) {
    EXPECT_EQ(ErrorOf(ParseConsolidateArgs(args)),
              "option series_csv is not accepted (command line): in oltp run it names one CSV "
              "file, and a search has many runs: --run_series_csv=Y writes each run's series "
              "beside its result (docs/consolidation.md)");
  }
  EXPECT_EQ(ErrorOf(ParseConsolidateArgs({"--plan=p", "--json", "r.json"})),
            "option json is not accepted (command line): each run of a search writes its own "
            "result next to the search file (--search)");
}

TEST(RunPlanOptionsTest, ThePlanIsTakenOutAndTheRestKeptInOrder) {
  auto r = ParseRunPlanArgs(
      {"--n_threads", "2", "--plan", "a.toml", "--run_time=5s", "--plan=b.toml", "--label", "x"});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->plan_path, "b.toml");  // the last one given
  EXPECT_EQ(r->extra, (Args{"--n_threads", "2", "--run_time=5s", "--label", "x"}));
  auto only = ParseRunPlanArgs({"--plan=p.toml"});
  ASSERT_TRUE(only.ok());
  EXPECT_EQ(only->plan_path, "p.toml");
  EXPECT_TRUE(only->extra.empty());
}

TEST(RunPlanOptionsTest, APlanIsRequired) {
  for (const Args& args : {Args{}, Args{"--n_threads=2"}, Args{"--plan"}, Args{"--plan="}}) {
    EXPECT_EQ(ErrorOf(ParseRunPlanArgs(args)), "no plan given; add --plan FILE.toml");
  }
}

TEST(CommandHelpTest, EveryTableListsItsOptionsWithDefaults) {
  const std::string compare = CompareHelp();
  EXPECT_EQ(compare.rfind("usage: storebench compare RESULT.json...", 0), 0u);
  EXPECT_NE(compare.find("  --resamples  (default 10000)  bootstrap resamples\n"),
            std::string::npos)
      << compare;
  EXPECT_NE(compare.find("  --force  (default N)  compare results whose"), std::string::npos);
  EXPECT_NE(AbHelp().find("  --rounds  (default 5)  rounds of A then B\n"), std::string::npos);
  EXPECT_NE(ReportHelp().find("  -o, --output  (no default)"), std::string::npos);
  EXPECT_NE(ExecHelp().find("  --series_csv  (no default)"), std::string::npos);
  const std::string consolidate = ConsolidateHelp();
  EXPECT_NE(consolidate.find("  --run_series_csv  (default N)"), std::string::npos);
  EXPECT_NE(consolidate.find("  --series_csv  (no default)  refused: in oltp run it names one"),
            std::string::npos)
      << consolidate;
}

}  // namespace
}  // namespace sb::cli
