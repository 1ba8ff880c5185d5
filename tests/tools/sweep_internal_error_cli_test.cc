// Goal: a run that ends in an internal error (exit 70) in a sweep is a named row of the sweep,
// not the end of it. Before (issue 54, R2): `--jobs 1` wrote no JSON or JUnit at all, `--jobs 2`
// lost every remaining run of the dead worker without naming the culprit, and `--resume` died
// on the run again.
// Method: the REPARTSIM_TEST_INTERNAL_ERROR_SEED hook (tools/repartsim/verb_sweep.cc) fails an
// assertion in every run of one seed; the reports are read back with the campaign layer's
// reader.
#include <gtest/gtest.h>

#include <string>

#include "tests/tools/cli_runner.h"
#include "tests/tools/sweep_reader.h"

namespace {
namespace sweep_internal_error_cli_test {

using repartsim::testing::CliOutcome;
using repartsim::testing::Has;

const std::string kScenario =
    std::string(REPARTSIM_SOURCE_DIR) + "/scenarios/crash/datanode_restart_writes.yaml";

CliOutcome Sweep(const std::string& dir, const std::string& flags) {
  return repartsim::testing::RunShell("cd " + dir + " && REPARTSIM_TEST_INTERNAL_ERROR_SEED=2 " +
                                      REPARTSIM_BINARY + " sweep " + kScenario +
                                      " --seeds 0..5 --quiet " + flags + " 2>&1");
}

TEST(SweepInternalErrorCliTest, TheRunIsNamedAndTheOthersAreReported) {
  for (const std::string jobs : {"1", "2"}) {
    const std::string dir = repartsim::testing::FreshTestDir("internal_error_" + jobs);
    CliOutcome o = Sweep(dir, "--jobs " + jobs + " --json s.json --junit s.xml --html s.html");
    EXPECT_EQ(o.exit_code, 70) << o.output;
    EXPECT_TRUE(Has(o.output, " died running " + kScenario +
                                  " seed 2: exit code 70; the run is an internal-error row, its "
                                  "other runs went on"))
        << o.output;
    repartsim::campaign::SweepReport report = repartsim::testing::ReadSweep(dir + "/s.json");
    ASSERT_EQ(report.runs.size(), 6u) << jobs;
    for (const repartsim::campaign::SweepRun& run : report.runs) {
      EXPECT_EQ(run.outcome, run.seed == 2 ? "internal-error" : "pass") << run.seed;
    }
    EXPECT_EQ(report.runs[2].invariants, std::vector<std::string>{"INTERNAL-ERROR"});
    EXPECT_EQ(report.ExitCode(), 70);
    const std::string junit = repartsim::testing::ReadText(dir + "/s.xml");
    EXPECT_TRUE(Has(junit, "<failure message=\"UNEXPECTED INTERNAL-ERROR; expected pass\">"))
        << junit;
    EXPECT_TRUE(Has(junit, kScenario + " --seed 2 --profile reference")) << junit;

    // The resume keeps the row instead of running it (and dying) again.
    CliOutcome resume = Sweep(dir, "--jobs " + jobs + " --resume s.json --json r.json");
    EXPECT_EQ(resume.exit_code, 70) << resume.output;
    EXPECT_TRUE(Has(resume.output, "finished runs kept, 0 to run")) << resume.output;
    EXPECT_FALSE(Has(resume.output, "internal error: assertion")) << resume.output;
  }
}

}  // namespace sweep_internal_error_cli_test
}  // namespace
