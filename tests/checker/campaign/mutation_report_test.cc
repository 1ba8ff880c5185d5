// Goal: the mutation report (checker/campaign/mutation_report.h): the score counts kills and
// documented kills over the mutated switches only, the exit code follows the reference row,
// --min-score and dead rows; --only picks switches on in reference, each once, and names the
// first other one; the text names each kill with its repro and the score line.
// Method: rows built by hand.
#include "checker/campaign/mutation_report.h"

#include <gtest/gtest.h>

#include "model/protocol/rules.h"

namespace repartsim::campaign {
namespace {
namespace mutation_report_test {

MutantRow Row(const std::string& rule, const std::string& result) {
  MutantRow row;
  row.rule = rule;
  row.result = result;
  if (result == "killed") {
    row.invariant = "INV-ACK";
    row.path = "s.yaml";
    row.seed = 4;
    row.stage = "run";
    row.message = "1 row is missing";
    row.repro = "repartsim run s.yaml --seed 4";
  }
  return row;
}

TEST(MutationReportTest, ScoreCountsTheMutantsOnly) {
  std::vector<MutantRow> rows = {Row("", "clean"), Row("a", "killed"), Row("b", "survived"),
                                 Row("c", "killed")};
  rows[1].annotation = "violation: INV-ACK";
  rows[1].annotation_met = true;
  const MutationScore score = Score(rows);
  EXPECT_EQ(score.killed, 2u);
  EXPECT_EQ(score.total, 3u);
  EXPECT_EQ(score.documented, 1u);
  EXPECT_NEAR(score.percent, 66.666, 0.01);
  EXPECT_EQ(score.ExitCode(std::nullopt), 0);
  EXPECT_EQ(score.ExitCode(66.0), 0);
  EXPECT_EQ(score.ExitCode(70.0), 1);
  EXPECT_EQ(score.Line(),
            "mutation score: 2/3 killed (66.7%), 1 documented by the killing scenario's "
            "expect.with_rules");

  rows[0] = Row("", "violation");
  EXPECT_EQ(Score(rows).ExitCode(std::nullopt), 1);
  EXPECT_NE(Score(rows).Line().find("; reference NOT clean"), std::string::npos);
  rows[2].result = "error";
  EXPECT_EQ(Score(rows).ExitCode(std::nullopt), 70);
  EXPECT_EQ(Score({Row("", "clean")}).percent, 100.0);
}

TEST(MutationReportTest, TextNamesEachKillAndEndsWithTheScore) {
  Budget budget;
  budget.seeds = "the first 1 seeds of each scenario's range";
  std::vector<MutantRow> rows = {Row("", "clean"), Row("a", "killed"), Row("b", "survived")};
  const std::string text = MutantsText(budget, rows);
  EXPECT_EQ(FoundBy(rows[1]), "s.yaml seed 4");
  EXPECT_EQ(FoundBy(rows[2]), "-");
  EXPECT_NE(text.find("  a: 1 row is missing (repro: repartsim run s.yaml --seed 4); not named "
                      "in the scenario's expect.with_rules\n"),
            std::string::npos);
  EXPECT_EQ(text.substr(text.rfind("mutation score")),
            "mutation score: 1/2 killed (50.0%), 0 documented by the killing scenario's "
            "expect.with_rules\n");
}

// A mutant that found nothing but whose runs the step cap cut more often than the reference's
// is `capped` (SearchAll marks it), counted apart and named with both counts; the reference's
// capped runs are no finding.
TEST(MutationReportTest, CappedMutantsAreNamedAndNotKilled) {
  std::vector<MutantRow> rows = {Row("", "clean"), Row("a", "killed"), Row("b", "capped")};
  rows[0].capped = 1;
  rows[0].runs = 10;
  rows[2].capped = 4;
  rows[2].runs = 10;
  const MutationScore score = Score(rows);
  EXPECT_EQ(score.killed, 1u);
  EXPECT_EQ(score.capped, 1u);
  EXPECT_TRUE(score.reference_clean);
  EXPECT_EQ(score.Line(),
            "mutation score: 1/2 killed (50.0%), 0 documented by the killing scenario's "
            "expect.with_rules, 1 capped (not killed; see above)");
  Budget budget;
  const std::string text = MutantsText(budget, rows);
  EXPECT_NE(text.find("reference: 1 of 10 runs capped at steps_max"), std::string::npos) << text;
  EXPECT_NE(text.find("capped b: nothing found, but 4 of 10 runs were capped at steps_max "
                      "(reference: 1)"),
            std::string::npos)
      << text;
  EXPECT_EQ(MutantRow::FromJson(rows[2].ToJson()).capped, 4u);
}

// A mutant that found nothing in a budget with swarm shapes names the shape features none of
// its runs drew (issue 60 item 3); one whose runs drew every value says so.
TEST(MutationReportTest, SurvivorsNameTheShapeFeaturesNoRunDrew) {
  std::vector<MutantRow> rows = {Row("", "clean"), Row("a", "survived"), Row("b", "survived"),
                                 Row("c", "survived")};
  rows[1].shapes = true;
  rows[1].features_not_drawn = {"crash=create_after_persist", "rule=host"};
  rows[2].shapes = true;
  Budget budget;
  const std::string text = MutantsText(budget, rows);
  EXPECT_NE(text.find("  survived a: shape features no run drew: crash=create_after_persist, "
                      "rule=host\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  survived b: its runs drew every shape feature value\n"),
            std::string::npos);
  EXPECT_EQ(text.find("survived c:"), std::string::npos);  // no shapes in its budget
  const MutantRow back = MutantRow::FromJson(rows[1].ToJson());
  EXPECT_TRUE(back.shapes);
  EXPECT_EQ(back.features_not_drawn, rows[1].features_not_drawn);
  EXPECT_FALSE(MutantRow::FromJson(rows[3].ToJson()).shapes);
}

TEST(MutationReportTest, OnlyPicksReferenceSwitchesOnce) {
  std::string bad;
  auto all = MutatedSwitches({}, &bad);
  ASSERT_TRUE(all.has_value());
  size_t on_in_reference = 0;
  for (const model::RuleInfo& info : model::AllRules()) on_in_reference += info.reference;
  // Every switch on in reference but the dead protection (gc-positive-proof: no run reaches
  // a file only a staging manifest or remap blob names).
  ASSERT_EQ(DeadProtections().size(), 1u);
  EXPECT_EQ(DeadProtections()[0].name, "gc-positive-proof");
  EXPECT_EQ(all->size() + 1, on_in_reference);
  EXPECT_EQ(std::count(all->begin(), all->end(), "gc-positive-proof"), 0);
  EXPECT_EQ(on_in_reference + 1, model::AllRules().size());  // target-sequence-foreign-files
  auto dead = MutatedSwitches({"gc-positive-proof"}, &bad);  // named, it is mutated
  ASSERT_TRUE(dead.has_value());
  EXPECT_EQ(*dead, std::vector<std::string>{"gc-positive-proof"});
  auto picked = MutatedSwitches({"fenced-reads", "durable-staging", "fenced-reads"}, &bad);
  ASSERT_TRUE(picked.has_value());
  EXPECT_EQ(*picked, (std::vector<std::string>{"fenced-reads", "durable-staging"}));
  EXPECT_FALSE(MutatedSwitches({"fenced-reads", "target-sequence-foreign-files"}, &bad));
  EXPECT_EQ(bad, "target-sequence-foreign-files");  // off in reference
}

}  // namespace mutation_report_test
}  // namespace
}  // namespace repartsim::campaign
