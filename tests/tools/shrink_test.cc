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
  EXPECT_NE(r.output.find("\n  story: L1 (docs/findings.md): the metasrv computed dn1's lease at "
                          "step 63 (HeartbeatReply 39), before procedure 3's ApplyStaging"),
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

// Before issue 53 the shrunk file kept expect.with_rules[2] (`seeds: 9..11`) beside its own
// `seeds: 3..3`, did not load, and shrink exited 70 ("NOT verified: the run differs"). Now the
// entry is left out, an entry the shrunk run misses is left out too, both are named with their
// reason (in the output and the file's header), and the verification lists what it compared.
TEST(ShrinkTest, EntriesThatCannotHoldAtTheSeedAreLeftOutAndNamed) {
  const std::string out = ::testing::TempDir() + "shrunk_adopted.yaml";
  const testing::CliOutcome r = testing::RunRepartsim(
      "shrink scenarios/greptime/adopted_files_outrank_staging_writes.yaml --seed 3 -q --out " +
      out);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  const std::string dropped_seeds =
      "expect.with_rules[2] of the source (reference with keep-memtable-on-apply=off: violation: "
      "INV-NOOMIT): its seeds 9..11 exclude seed 3";
  const std::string dropped_unmet =
      "expect.with_rules[0] of the source (reference with time-ordered-sequences=off: violation: "
      "INV-NOOMIT): its run in the shrunk scenario gives INV-ACK, INV-NOOMIT (outcome=safety)";
  const std::string expected =
      "verified: seed=3 steps=184 prng_draws=0 trace_hash=0x54273435fa7e715b outcome=safety\n"
      "  compared: the run of the file at seed 3 under greptime reports INV-NOOMIT, as seed 3 of "
      "scenarios/greptime/adopted_files_outrank_staging_writes.yaml did; 3 expectations of the "
      "file hold at that seed\n"
      "  met expect.greptime (greptime: violation: INV-NOOMIT (tolerates INV-ACK)): gives INV-ACK, "
      "INV-NOOMIT (outcome=safety)\n"
      "  met expect.reference (reference: pass): gives pass\n"
      "  met expect.with_rules[0] (reference with exit-staging-applies-edits=off: violation: "
      "INV-ACK (tolerates INV-NOOMIT)): gives INV-ACK, INV-NOOMIT (outcome=safety)\n"
      "  left out: " +
      dropped_seeds + "\n  left out: " + dropped_unmet + "\n";
  EXPECT_NE(r.output.find(expected), std::string::npos) << r.output;
  const std::string yaml = testing::ReadText(out);
  EXPECT_NE(yaml.find("\n# Left out of expect: " + dropped_seeds +
                      ".\n# Left out of expect: " + dropped_unmet + ".\nname: "),
            std::string::npos)
      << yaml;
  auto s = scenario::LoadScenarioFile(out);
  ASSERT_TRUE(s.ok()) << s.error().Format();
  EXPECT_EQ(s.value().seed_first, 3u);
  EXPECT_EQ(s.value().seed_last, 3u);
  ASSERT_EQ(s.value().rule_expect.size(), 1u);
  EXPECT_EQ(s.value().rule_expect[0].overrides, "exit-staging-applies-edits=off");
  // The file's expectations hold in a sweep of it.
  const testing::CliOutcome sweep = testing::RunRepartsim("sweep " + out + " -q");
  EXPECT_EQ(sweep.exit_code, 0) << sweep.output;
}

}  // namespace shrink_test
}  // namespace
}  // namespace repartsim::tools
