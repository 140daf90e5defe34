// ParseCommandLine with a command's shape: positionals, the rest after "--", options handed on,
// one-letter aliases, and refused options left out of --help.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "config/options.h"

namespace sb::config {
namespace {

OptionSet Table() {
  OptionSet o;
  o.set_help_command("storebench t --help");
  o.Add({.name = "out", .help = "output", .group = "t", .short_alias = 'o'});
  o.Add({.name = "force", .type = OptionType::kBool, .default_value = "N", .group = "t"});
  o.Add({.name = "old",
         .help = "refused: write --out",
         .group = "t",
         .refusal = "write --out"});
  return o;
}

TEST(CommandLineShapeTest, PositionalsAreCollectedInOrderBetweenOptions) {
  OptionSet o = Table();
  CommandLineRest rest;
  ASSERT_TRUE(ParseCommandLine({"a.json", "--out", "x.html", "b.json", "-", "--force=yes"}, &o,
                               {.positionals = true}, &rest)
                  .ok());
  EXPECT_EQ(rest.positionals, (std::vector<std::string>{"a.json", "b.json", "-"}));
  EXPECT_EQ(o.GetString("out"), "x.html");
  EXPECT_TRUE(o.GetBool("force"));
}

TEST(CommandLineShapeTest, WithoutPositionalsAWordIsRefused) {
  OptionSet o = Table();
  Status s = ParseCommandLine({"a.json"}, &o);
  EXPECT_EQ(s.message(),
            "unexpected argument 'a.json' (command line); options are written --name=value or "
            "--name value");
}

TEST(CommandLineShapeTest, ABoolWordAfterABareFlagIsRefusedEvenWithPositionals) {
  OptionSet o = Table();
  CommandLineRest rest;
  Status s = ParseCommandLine({"--force", "yes"}, &o, {.positionals = true}, &rest);
  EXPECT_EQ(s.message(),
            "unexpected argument 'yes' (command line); a bare --force means Y, write --force=yes "
            "to give it a value");
}

TEST(CommandLineShapeTest, ShortAliasTakesAValueLikeTheLongName) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"-o", "p.html"}, std::vector<std::string>{"-o=p.html"},
        std::vector<std::string>{"--out=p.html"}}) {
    OptionSet o = Table();
    CommandLineRest rest;
    ASSERT_TRUE(ParseCommandLine(args, &o, {.positionals = true}, &rest).ok());
    EXPECT_EQ(o.GetString("out"), "p.html");
    EXPECT_TRUE(rest.positionals.empty());
  }
}

TEST(CommandLineShapeTest, AnUnknownDashWordIsAnUnknownOption) {
  OptionSet o = Table();
  CommandLineRest rest;
  Status s = ParseCommandLine({"-x", "a"}, &o, {.positionals = true}, &rest);
  EXPECT_EQ(s.message(), "unknown option 'x' (command line); see storebench t --help");
  s = ParseCommandLine({"--outt=a"}, &o, {.positionals = true}, &rest);
  EXPECT_EQ(s.message(),
            "unknown option 'outt' (command line); did you mean 'out'? see storebench t --help");
}

TEST(CommandLineShapeTest, DashesEndTheOptions) {
  OptionSet o = Table();
  CommandLineRest rest;
  ASSERT_TRUE(ParseCommandLine({"--out", "r", "--", "make", "--help", "-j8"}, &o,
                               {.rest_after_dashes = true}, &rest)
                  .ok());
  EXPECT_TRUE(rest.dashes);
  EXPECT_EQ(rest.after_dashes, (std::vector<std::string>{"make", "--help", "-j8"}));
  // Without the shape, "--" is an option without a name.
  OptionSet plain = Table();
  EXPECT_EQ(ParseCommandLine({"--"}, &plain).message(),
            "argument '--' has no option name (command line)");
}

TEST(CommandLineShapeTest, UnknownOptionsAreHandedOnWithTheirWords) {
  OptionSet o = Table();
  CommandLineRest rest;
  ASSERT_TRUE(ParseCommandLine(
                  {"--n_threads", "4", "--force", "--label=x", "--config_file", "f", "--out", "o"},
                  &o, {.pass_unknown = true}, &rest)
                  .ok());
  EXPECT_EQ(rest.passed,
            (std::vector<std::string>{"--n_threads", "4", "--label=x", "--config_file", "f"}));
  EXPECT_TRUE(o.GetBool("force"));
  EXPECT_EQ(o.GetString("out"), "o");
}

TEST(CommandLineShapeTest, ARefusedOptionIsRefusedInEveryForm) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"--old"}, std::vector<std::string>{"--old=x.csv"},
        std::vector<std::string>{"--old", "x.csv"}}) {
    OptionSet o = Table();
    EXPECT_EQ(ParseCommandLine(args, &o).message(),
              "option old is not accepted (command line): write --out");
  }
  const std::string help = Table().HelpText();
  EXPECT_NE(help.find("  --old  (no default)  refused: write --out\n"), std::string::npos) << help;
  EXPECT_NE(help.find("  -o, --out  (no default)  output\n"), std::string::npos) << help;
}

}  // namespace
}  // namespace sb::config
