// Goal: `repartsim rules` prints the switch table report::RulesText() makes (its content is
// tested in process: tests/checker/report/rules_table_test.cc) on stdout with exit 0,
// `--json` prints report::RulesJson(), and an unknown flag is a located usage error (64).
// Method: run the built binary through popen and compare its stdout byte for byte.
#include <gtest/gtest.h>

#include <string>

#include "checker/report/rules_table.h"
#include "tests/tools/cli_runner.h"

namespace {
namespace rules_test {

using Outcome = repartsim::testing::CliOutcome;
using repartsim::testing::RunRepartsim;

TEST(RulesVerbTest, PrintsTheTableOnStdout) {
  Outcome outcome = RunRepartsim("rules", "", /*stderr_too=*/false);
  EXPECT_EQ(outcome.exit_code, 0);
  EXPECT_EQ(outcome.output, repartsim::report::RulesText());
}

TEST(RulesVerbTest, JsonPrintsTheArray) {
  Outcome outcome = RunRepartsim("rules --json", "", /*stderr_too=*/false);
  EXPECT_EQ(outcome.exit_code, 0);
  EXPECT_EQ(outcome.output, repartsim::report::RulesJson());
}

TEST(RulesVerbTest, UnknownFlagIsUsageError) {
  Outcome outcome = RunRepartsim("rules --bogus");
  EXPECT_EQ(outcome.exit_code, 64);
  EXPECT_EQ(outcome.output.rfind("<command line>:1:7: error: ", 0), 0u) << outcome.output;
}

}  // namespace rules_test
}  // namespace
