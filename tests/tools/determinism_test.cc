// Goal: the determinism self-check passes on a deterministic run and catches a planted
// nondeterminism: the second run is perturbed at one step (a test seam, RunConfig::after_step
// scheduling an extra heal op), and the report names the first divergent event with the
// lines before it and both runs' lines from there. `run --check-determinism` passes (exit 0).
#include "checker/campaign/determinism.h"

#include <gtest/gtest.h>

#include "checker/scenario/loader.h"
#include "model/cluster/cluster.h"
#include "tests/paths.h"
#include "tests/tools/cli_runner.h"

namespace repartsim::tools {
namespace {
namespace determinism_test {

scenario::Scenario Load() {
  auto s = scenario::LoadScenarioFile(std::string(REPARTSIM_SOURCE_DIR) +
                                      "/scenarios/explore/split_small.yaml");
  EXPECT_TRUE(s.ok());
  return s.value();
}

TEST(DeterminismTest, SameSeedTwiceMatches) {
  const campaign::DeterminismCheck c = campaign::CheckDeterminism(Load(), run::RunConfig{});
  EXPECT_FALSE(c.mismatch.has_value());
  EXPECT_EQ(c.first.summary, c.second.summary);
}

TEST(DeterminismTest, PlantedNondeterminismIsReportedAtItsFirstEvent) {
  const scenario::Scenario s = Load();
  const campaign::DeterminismCheck c =
      campaign::CheckDeterminism(s, run::RunConfig{}, [](run::RunConfig& rc) {
        rc.after_step = [](const run::StepView& v) {
          if (v.step == 30) v.cluster.Schedule(sim::SimTime{v.now_ms}, model::HealOp{});
          return true;
        };
      });
  ASSERT_TRUE(c.mismatch.has_value());
  const std::string& m = *c.mismatch;
  EXPECT_NE(c.first.summary.trace_hash, c.second.summary.trace_hash);
  // The extra op is the first difference: run 2 has it where run 1 goes on.
  const size_t at = m.find("first divergent event #");
  ASSERT_NE(at, std::string::npos) << m;
  EXPECT_NE(m.find("     both: "), std::string::npos) << m;
  EXPECT_NE(m.find("  > run 1: "), std::string::npos) << m;
  const size_t run2 = m.find("  > run 2: ");
  ASSERT_NE(run2, std::string::npos) << m;
  EXPECT_NE(m.find("heal", run2), std::string::npos) << m;
  EXPECT_EQ(m.rfind("run 1: seed=0 ", 0), 0u) << m;
}

TEST(DeterminismTest, DivergenceReportShowsContext) {
  const std::vector<std::string> a = {"l0", "l1", "l2", "l3", "x4", "l5"};
  const std::vector<std::string> b = {"l0", "l1", "l2", "l3", "y4"};
  EXPECT_EQ(campaign::DivergenceReport(a, b, 2),
            "first divergent event #4\n"
            "     both: l2\n"
            "     both: l3\n"
            "  > run 1: x4\n"
            "    run 1: l5\n"
            "  > run 2: y4\n");
  EXPECT_EQ(campaign::DivergenceReport(a, a), "the traces are identical");
}

TEST(DeterminismTest, RunVerbChecksDeterminism) {
  const testing::CliOutcome r = testing::RunRepartsim(
      "run scenarios/explore/split_small.yaml --check-determinism --choices " +
      ::testing::TempDir() + "det.choices");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("determinism: a second run gave the same trace_hash 0x"),
            std::string::npos)
      << r.output;
}

}  // namespace determinism_test
}  // namespace
}  // namespace repartsim::tools
