// Goal: pin finding N2 ([inferred] from GreptimeDB PR #8946): ranking files a merge target
// adopts at a target-local admission sequence fixes N1 except for values the target accepted
// while staging, before its own ApplyStagingManifest, which still lose to older adopted rows.
// Method: the bundled scenario greptime/adopted_files_outrank_staging_writes over seeds 0..29
// under greptime (N1 on every seed), with target-sequence-foreign-files on (the PR: seeds 22
// and 24 only), and with time-ordered-sequences on (none).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "checker/run/runner.h"
#include "checker/scenario/loader.h"
#include "tests/paths.h"

namespace repartsim::scenario {
namespace {
namespace foreign_sequence_test {

std::vector<uint64_t> FailingSeeds(const std::vector<std::pair<std::string, bool>>& rules) {
  auto s = LoadScenarioFile(std::string(REPARTSIM_SOURCE_DIR) +
                            "/scenarios/greptime/adopted_files_outrank_staging_writes.yaml");
  EXPECT_TRUE(s.ok()) << s.error().Format();
  std::vector<uint64_t> failing;
  for (uint64_t seed = 0; seed < 30; ++seed) {
    run::RunConfig config;
    config.seed = seed;
    config.profile = "greptime";
    config.rules = rules;
    auto report = run::RunScenario(s.value(), config);
    EXPECT_TRUE(report.ok());
    bool stale = false;
    for (const check::Violation& v : report.value().violations) {
      stale = stale || v.invariant == check::Invariant::kNoOmit;
    }
    if (stale) failing.push_back(seed);
  }
  return failing;
}

TEST(ForeignSequenceTest, AdmissionSequencesLeaveOnlyStagingWritesExposed) {
  EXPECT_EQ(FailingSeeds({}).size(), 30u);
  EXPECT_EQ(FailingSeeds({{"target-sequence-foreign-files", true}}),
            (std::vector<uint64_t>{22, 24}));
  EXPECT_TRUE(FailingSeeds({{"time-ordered-sequences", true}}).empty());
}

}  // namespace foreign_sequence_test
}  // namespace
}  // namespace repartsim::scenario
