// Goal: the repartsim binary's global behaviour: --version, --help, unknown flags and verbs,
// and verbs that are not built yet. Method: run the built binary (REPARTSIM_BINARY) through
// popen and assert the exit code and the exact output lines.
#include <gtest/gtest.h>

#include <string>

#include "checker/campaign/sweep_report.h"
#include "tests/paths.h"
#include "tests/tools/cli_runner.h"

namespace {
namespace cli_test {

using Outcome = repartsim::testing::CliOutcome;
using repartsim::testing::RunRepartsim;

TEST(CliTest, VersionPrintsNameVersionAndTheBuildIdReportsRecord) {
  Outcome outcome = RunRepartsim("--version");
  EXPECT_EQ(outcome.exit_code, 0);
  EXPECT_EQ(outcome.output, std::string("repartsim ") + REPARTSIM_VERSION + " (build " +
                                repartsim::campaign::FileHash(REPARTSIM_BINARY) + ")\n");
}

TEST(CliTest, AMistypedVerbFlagOrRuleGetsASuggestion) {
  EXPECT_EQ(RunRepartsim("swep x").output,
            "<command line>:1:1: error: The following arguments were not expected: x swep (did "
            "you mean 'sweep'?) (see '" +
                std::string(REPARTSIM_BINARY) + " --help')\n");
  EXPECT_EQ(RunRepartsim("run x.yaml --sed 3").output,
            "<command line>:1:12: error: The following arguments were not expected: 3 --sed "
            "(did you mean '--seed'?) (see '" +
                std::string(REPARTSIM_BINARY) + " run --help')\n");
  EXPECT_EQ(RunRepartsim("rules --jsn").output,
            "<command line>:1:7: error: The following argument was not expected: --jsn (did you "
            "mean '--json'?) (see '" +
                std::string(REPARTSIM_BINARY) + " rules --help')\n");
  const Outcome rule = RunRepartsim(
      "run scenarios/split/split_with_writers.yaml --rule fenced-read=off", REPARTSIM_SOURCE_DIR);
  EXPECT_EQ(rule.exit_code, 64);
  EXPECT_NE(rule.output.find("error: unknown rule 'fenced-read' (did you mean 'fenced-reads'?); "
                             "`repartsim rules` lists every rule"),
            std::string::npos)
      << rule.output;
}

TEST(CliTest, HelpListsEveryVerb) {
  Outcome outcome = RunRepartsim("--help");
  EXPECT_EQ(outcome.exit_code, 0);
  for (const char* verb :
       {"run", "replay", "sweep", "explore", "shrink", "check-rule", "plan", "route", "prune"}) {
    EXPECT_NE(outcome.output.find(std::string("  ") + verb), std::string::npos) << verb;
  }
}

// Issue 53: `repartsim help run` was an error; the top-level help omitted 130 and 143.
TEST(CliTest, HelpVerbPrintsTheVerbsHelpAndTheTopLevelHelpListsEveryExitCode) {
  const Outcome help_run = RunRepartsim("help run");
  EXPECT_EQ(help_run.exit_code, 0) << help_run.output;
  EXPECT_EQ(help_run.output, RunRepartsim("run --help").output);
  const Outcome help = RunRepartsim("help");
  EXPECT_EQ(help.exit_code, 0) << help.output;
  EXPECT_EQ(help.output, RunRepartsim("--help").output);
  EXPECT_NE(help.output.find("130, 143 sweep interrupted"), std::string::npos) << help.output;
  EXPECT_NE(help.output.find("'repartsim help VERB'"), std::string::npos) << help.output;
  const Outcome unknown = RunRepartsim("help frobnicate");
  EXPECT_EQ(unknown.exit_code, 64) << unknown.output;
}

TEST(CliTest, UnknownFlagExits64WithLocatedError) {
  Outcome outcome = RunRepartsim("--frobnicate");
  EXPECT_EQ(outcome.exit_code, 64);
  EXPECT_EQ(outcome.output.rfind("<command line>:1:1: error: ", 0), 0u) << outcome.output;
  EXPECT_NE(outcome.output.find("--frobnicate"), std::string::npos);
}

TEST(CliTest, UnknownFlagAfterVerbIsLocatedAtItsColumn) {
  Outcome outcome = RunRepartsim("check-rule --bogus-flag x");
  EXPECT_EQ(outcome.exit_code, 64);
  EXPECT_EQ(outcome.output.rfind("<command line>:1:12: error: ", 0), 0u) << outcome.output;
}

TEST(CliTest, AnInputWithoutTheNeededStatementIsLocatedAtItsStart) {
  // Before: "<input>: error: ..." named no input at all.
  Outcome outcome = RunRepartsim(
      "plan 'CREATE TABLE t (a INT, ts TIMESTAMP TIME INDEX) PARTITION ON COLUMNS (a) (a < 10, "
      "a >= 10)'");
  EXPECT_EQ(outcome.exit_code, 64);
  EXPECT_EQ(outcome.output, "<arg 1>:1:1: error: no ALTER TABLE statement to plan\n");
  outcome = RunRepartsim("route 'SELECT * FROM t' --row a=1");
  EXPECT_EQ(outcome.exit_code, 64);
  EXPECT_EQ(outcome.output, "<arg 1>:1:1: error: no CREATE TABLE statement\n");
  outcome = RunRepartsim("check-rule -f scenarios");
  EXPECT_EQ(outcome.exit_code, 64);
  EXPECT_EQ(outcome.output, "scenarios: error: is a directory, not a SQL file\n");
}

TEST(CliTest, MissingVerbExits64) {
  Outcome outcome = RunRepartsim("");
  EXPECT_EQ(outcome.exit_code, 64);
  EXPECT_NE(outcome.output.find("error: "), std::string::npos);
}

}  // namespace cli_test
}  // namespace
