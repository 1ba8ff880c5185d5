// Goal: `shrink` turns a failing random-workload seed of a greptime scenario into a scripted
// scenario of at most a dozen steps that still fails with the same invariant, and the written
// file reproduces it with a plain run; a passing seed is refused (exit 64).
// Method: lease-race-new-region-ack seed 0 (INV-ACK under greptime), through the library and
// the CLI; the sizes are exact (measured once).
#include "checker/campaign/shrink.h"

#include <gtest/gtest.h>

#include "checker/check/violation.h"
#include "checker/run/runner.h"
#include "checker/scenario/loader.h"
#include "tests/paths.h"
#include "tests/tools/cli_runner.h"

namespace repartsim::tools {
namespace {
namespace shrink_test {

const std::string kScenario = "scenarios/greptime/lease_race_new_region_ack.yaml";

TEST(ShrinkTest, GreptimeLeaseRaceSeedShrinksToAFewSteps) {
  campaign::ShrinkConfig config;
  config.scenario_path = std::string(REPARTSIM_SOURCE_DIR) + "/" + kScenario;
  config.seed = 0;
  auto r = campaign::Shrink(config);
  ASSERT_TRUE(r.ok()) << r.error().Format();
  EXPECT_EQ(r.value().invariant, "INV-ACK");
  EXPECT_EQ(r.value().profile, "greptime");
  EXPECT_GT(r.value().before.steps, 50u);
  EXPECT_LE(r.value().after.steps, 12u);
  EXPECT_EQ(r.value().after.decisions, 0u);
  auto s = scenario::ParseScenario(r.value().yaml, "shrunk.yaml");
  ASSERT_TRUE(s.ok()) << s.error().Format();
  EXPECT_FALSE(s.value().workload.enabled);
  auto run = run::RunScenario(s.value(), run::RunConfig{});
  ASSERT_TRUE(run.ok());
  ASSERT_FALSE(run.value().violations.empty());
  bool ack = false;
  for (const check::Violation& v : run.value().violations)
    ack |= v.invariant == check::Invariant::kAck;
  EXPECT_TRUE(ack);
  EXPECT_EQ(run.value().summary.prng_draws, 0u);
}

TEST(ShrinkTest, CliWritesAVerifiedScenarioAndRefusesAPassingSeed) {
  const std::string out = ::testing::TempDir() + "shrunk_lease_race.yaml";
  const testing::CliOutcome r =
      testing::RunRepartsim("shrink " + kScenario + " --seed 0 --out " + out);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("INV-ACK"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("verified: seed=0 "), std::string::npos) << r.output;
  // The shrunk run is told (issue 36): its story, under the scenario line.
  EXPECT_NE(r.output.find("outcome=safety\n  story: rows were lost when dn2 ran "
                          "ApplyStagingManifest on region 4398046511104(1024, 0) at step 97\n"),
            std::string::npos)
      << r.output;
  const testing::CliOutcome run =
      testing::RunRepartsim("run " + out + " --choices " + out + ".choices");
  EXPECT_EQ(run.exit_code, 1) << run.output;
  EXPECT_NE(run.output.find("INV-ACK at step"), std::string::npos) << run.output;
  const testing::CliOutcome pass =
      testing::RunRepartsim("shrink " + kScenario + " --seed 0 --profile reference --out " + out);
  EXPECT_EQ(pass.exit_code, 64) << pass.output;
  EXPECT_NE(pass.output.find("passes (nothing to shrink)"), std::string::npos) << pass.output;
  // Before: a full disk exited 70 ("did not reproduce") and lost the shrunk scenario.
  const testing::CliOutcome full =
      testing::RunRepartsim("shrink " + kScenario + " --seed 0 --out /dev/full");
  EXPECT_EQ(full.exit_code, 73) << full.output;
  EXPECT_NE(
      full.output.find(
          "# /dev/full could not be written; the shrunk scenario:\n# Written by repartsim shrink"),
      std::string::npos)
      << full.output;
  EXPECT_NE(full.output.find("/dev/full: error: cannot write the report: No space left on device"),
            std::string::npos);
}

}  // namespace shrink_test
}  // namespace
}  // namespace repartsim::tools
