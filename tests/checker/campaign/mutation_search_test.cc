// Goal: the mutation search (checker/campaign/mutation_search.h) in process: PlanItems orders the
// library seed-major; the reference row of a small budget is clean; a mutant the budget guards
// is killed by the scenario that documents it, with the exact invariant, seed and repro; a
// mutant it does not guard survives after the whole budget; SearchAll gives the same rows from
// forked processes, in order; a row survives its JSON round trip; the JSON report holds the
// budget, the reference row, every mutant row and the score.
// Method: a budget of two bundled historical scenarios (one seed each, no explore).
#include "checker/campaign/mutation_search.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "checker/campaign/mutation_report.h"
#include "checker/scenario/loader.h"
#include "tests/paths.h"

namespace repartsim::campaign {
namespace {
namespace mutation_search_test {

Budget SmallBudget() {
  Budget b;
  for (const char* file :
       {"stale_cache/raced_route_fill_kept.yaml", "merge/staged_file_claims_old_range.yaml"}) {
    auto s = scenario::LoadScenarioFile(std::string(REPARTSIM_SOURCE_DIR) + "/scenarios/" + file);
    EXPECT_TRUE(s.ok()) << s.error().Format();
    b.scenarios.push_back(std::move(s).value());
  }
  b.steps_max = 10000;
  b.seeds = "the first 1 seeds of each scenario's range";
  b.seeds_per_scenario = 1;
  EXPECT_TRUE(PlanItems(b, std::nullopt, 1));
  return b;
}

TEST(MutationSearchTest, PlanItemsIsSeedMajor) {
  Budget b = SmallBudget();
  ASSERT_TRUE(PlanItems(b, std::make_pair(uint64_t{4}, uint64_t{6}), 0));
  std::vector<std::pair<size_t, uint64_t>> got;
  for (const BudgetItem& item : b.items) got.push_back({item.scenario, item.seed});
  EXPECT_EQ(got, (std::vector<std::pair<size_t, uint64_t>>{
                     {0, 4}, {1, 4}, {0, 5}, {1, 5}, {0, 6}, {1, 6}}));
  ASSERT_TRUE(PlanItems(b, std::nullopt, 1));
  EXPECT_EQ(b.items.size(), 2u);  // both ranges are 0..0
}

TEST(MutationSearchTest, ABudgetOverTheRunCapIsRefusedBeforeItIsPlanned) {
  Budget b = SmallBudget();
  EXPECT_FALSE(PlanItems(b, std::make_pair(uint64_t{0}, uint64_t{99999999}), 0));
  EXPECT_TRUE(b.items.empty());
  EXPECT_FALSE(PlanItems(b, std::make_pair(uint64_t{0}, UINT64_MAX), 0));
  EXPECT_FALSE(PlanItems(b, std::make_pair(uint64_t{0}, kMutantRunsMax / 2), 0));  // 2 x (n/2+1)
  EXPECT_TRUE(b.items.empty());
}

TEST(MutationSearchTest, ReferenceIsCleanAGuardedMutantIsKilledAnotherSurvives) {
  const Budget b = SmallBudget();
  const MutantRow reference = Search(b, "");
  EXPECT_EQ(reference.result, "clean");
  EXPECT_EQ(reference.runs, 2u);

  const MutantRow killed = Search(b, "staging-flush-expr");
  EXPECT_EQ(killed.result, "killed");
  EXPECT_EQ(killed.stage, "run");
  EXPECT_EQ(killed.path, b.scenarios[1].path);
  EXPECT_EQ(killed.seed, 0u);
  EXPECT_EQ(killed.invariant, "INV-ACK");  // the first finding: quiescent duplicate
  EXPECT_EQ(killed.runs, 1u);              // the documenting scenario is searched first
  EXPECT_TRUE(killed.Documented());
  EXPECT_EQ(killed.annotation, "violation: INV-OWN (tolerates INV-ACK, INV-NODUP)");
  EXPECT_EQ(killed.repro, "repartsim run " + b.scenarios[1].path +
                              " --seed 0 --profile reference --rule staging-flush-expr=off");

  const MutantRow survived = Search(b, "acked-invalidation");
  EXPECT_EQ(survived.result, "survived");
  EXPECT_EQ(survived.runs, 2u);
  EXPECT_FALSE(survived.Found());
}

TEST(MutationSearchTest, SearchAllGivesTheSameRowsInOrderFromForkedProcesses) {
  const Budget b = SmallBudget();
  const std::vector<std::string> rules = {"", "discard-raced-fills", "acked-invalidation"};
  std::vector<size_t> progress;
  const std::vector<MutantRow> rows =
      SearchAll(b, rules, 2, [&](size_t done, size_t total, const MutantRow&) {
        EXPECT_EQ(total, 3u);
        progress.push_back(done);
      });
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(progress, (std::vector<size_t>{1, 2, 3}));
  EXPECT_EQ(rows[0].result, "clean");
  EXPECT_EQ(rows[1].rule, "discard-raced-fills");
  EXPECT_EQ(rows[1].result, "killed");
  EXPECT_EQ(rows[1].invariant, "INV-NOOMIT");
  EXPECT_EQ(rows[1].path, b.scenarios[0].path);
  EXPECT_EQ(rows[2].result, "survived");
  const MutantRow again = MutantRow::FromJson(nlohmann::json::parse(rows[1].ToJson().dump()));
  EXPECT_EQ(again.ToJson(), rows[1].ToJson());
}

TEST(MutationSearchTest, TheJsonReportHoldsTheBudgetTheRowsAndTheScore) {
  const Budget b = SmallBudget();
  const std::vector<MutantRow> rows = {Search(b, ""), Search(b, "staging-flush-expr"),
                                       Search(b, "acked-invalidation")};
  const nlohmann::ordered_json j = MutantsJson("0.1.0", "0x1", b, rows, std::nullopt, 0, 5);
  EXPECT_EQ(j.at("version"), "0.1.0");
  EXPECT_EQ(j.at("binary"), "0x1");
  EXPECT_EQ(j.at("budget").at("runs"), 2);
  EXPECT_EQ(j.at("budget").at("scenarios"),
            nlohmann::ordered_json::array({b.scenarios[0].path, b.scenarios[1].path}));
  EXPECT_EQ(j.at("budget").at("seeds"), "the first 1 seeds of each scenario's range");
  EXPECT_EQ(j.at("budget").at("steps_max"), 10000);
  EXPECT_EQ(j.at("budget").at("explore_states"), 0);
  EXPECT_EQ(j.at("budget").at("text"), b.Describe());
  EXPECT_EQ(j.at("reference").at("switch"), nullptr);
  EXPECT_EQ(j.at("reference").at("result"), "clean");
  EXPECT_EQ(j.at("reference").at("runs"), 2);
  ASSERT_EQ(j.at("mutants").size(), 2u);
  const nlohmann::ordered_json& killed = j.at("mutants")[0];
  EXPECT_EQ(killed.at("switch"), "staging-flush-expr");
  EXPECT_EQ(killed.at("result"), "killed");
  EXPECT_EQ(killed.at("invariant"), "INV-ACK");
  EXPECT_EQ(killed.at("stage"), "run");
  EXPECT_EQ(killed.at("path"), b.scenarios[1].path);
  EXPECT_EQ(killed.at("scenario"), b.scenarios[1].name);
  EXPECT_EQ(killed.at("seed"), 0);
  EXPECT_EQ(killed.at("runs"), 1);
  EXPECT_EQ(killed.at("steps"), rows[1].steps);
  EXPECT_EQ(killed.at("ms"), 0);  // no clock given to the budget
  EXPECT_EQ(killed.at("repro"), rows[1].repro);
  EXPECT_EQ(killed.at("expected_by_scenario"), "violation: INV-OWN (tolerates INV-ACK, INV-NODUP)");
  EXPECT_EQ(killed.at("documented"), true);
  EXPECT_EQ(j.at("mutants")[1].at("switch"), "acked-invalidation");
  EXPECT_EQ(j.at("mutants")[1].at("result"), "survived");
  EXPECT_FALSE(j.at("mutants")[1].contains("invariant"));
  EXPECT_EQ(j.at("score"),
            (nlohmann::ordered_json{
                {"killed", 1}, {"total", 2}, {"capped", 0}, {"percent", 50.0}, {"documented", 1}}));
  EXPECT_EQ(j.at("min_score"), nullptr);
  EXPECT_EQ(j.at("wall_ms"), 5);
  EXPECT_EQ(j.at("exit_code"), 0);
}

}  // namespace mutation_search_test
}  // namespace
}  // namespace repartsim::campaign
