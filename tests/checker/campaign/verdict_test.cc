// Goal: JudgeRow gives every verdict of a campaign row with its exact text and met flag, in
// the documented order (unrun and nondeterminism first, then no runs, unexpected invariants,
// pass, reproduced, one shard of several, not reproduced), skipped runs noted where they do
// not decide the verdict.
// Method: RowCounts built by hand for each branch and for the orderings that matter.
#include "checker/campaign/verdict.h"

#include <gtest/gtest.h>

namespace repartsim::campaign {
namespace {
namespace verdict_test {

RowCounts Ran(uint64_t runs) {
  RowCounts c;
  c.runs = runs;
  return c;
}

void ExpectVerdict(const RowVerdict& v, Verdict verdict, bool met, const std::string& text) {
  EXPECT_EQ(v.verdict, verdict) << v.text;
  EXPECT_EQ(v.met, met) << v.text;
  EXPECT_EQ(v.text, text);
}

TEST(VerdictTest, PassRowIsOkWithSkippedRunsNoted) {
  ExpectVerdict(JudgeRow(Ran(5), "", false, true), Verdict::kOk, true, "ok");
  RowCounts c = Ran(5);
  c.skipped = 2;
  ExpectVerdict(JudgeRow(c, "", false, true), Verdict::kOk, true, "ok (2 runs skipped)");
}

// A run capped at steps_max is counted apart and fails no row: the verdict names how many.
TEST(VerdictTest, CappedRunsAreNotedAndFailNoRow) {
  RowCounts c = Ran(5);
  c.capped = 3;
  ExpectVerdict(JudgeRow(c, "", false, true), Verdict::kOk, true, "ok (3 runs capped)");
  c.skipped = 1;
  ExpectVerdict(JudgeRow(c, "", false, true), Verdict::kOk, true,
                "ok (3 runs capped, 1 runs skipped)");
  ExpectVerdict(JudgeRow(c, "INV-LIVE", false, true), Verdict::kNotReproduced, false,
                "NOT REPRODUCED INV-LIVE (3 runs capped, 1 runs skipped)");
}

TEST(VerdictTest, ViolationRowIsMetOnlyWhenReproducedOrJudgedElsewhere) {
  RowCounts c = Ran(3);
  ExpectVerdict(JudgeRow(c, "INV-ACK", false, true), Verdict::kNotReproduced, false,
                "NOT REPRODUCED INV-ACK");
  ExpectVerdict(JudgeRow(c, "INV-ACK", false, false), Verdict::kNotInShard, true,
                "INV-ACK not in this shard (merge judges)");
  ExpectVerdict(JudgeRow(c, "INV-ACK", true, true), Verdict::kOk, true, "ok");  // raw
  c.reproduced = true;
  c.skipped = 1;
  ExpectVerdict(JudgeRow(c, "INV-ACK", false, true), Verdict::kReproduced, true,
                "ok (reproduced INV-ACK) (1 runs skipped)");
}

TEST(VerdictTest, UnexpectedInvariantsFailTheRowEvenWhenReproduced) {
  RowCounts c = Ran(4);
  c.reproduced = true;
  c.unexpected_invariants = {"INV-LIVE", "INV-OWN"};
  ExpectVerdict(JudgeRow(c, "INV-ACK", false, true), Verdict::kUnexpected, false,
                "UNEXPECTED INV-LIVE, INV-OWN");
}

TEST(VerdictTest, UnrunAndNondeterminismComeFirst) {
  RowCounts c = Ran(4);
  c.unexpected_invariants = {"INV-OWN"};
  c.nondeterminism = 1;
  ExpectVerdict(JudgeRow(c, "", false, true), Verdict::kNondeterminism, false, "NONDETERMINISM");
  c.unrun = 3;
  ExpectVerdict(JudgeRow(c, "", false, true), Verdict::kUnrun, false,
                "UNRUN 3 runs (the sweep was interrupted or a worker died)");
}

TEST(VerdictTest, ARowWithNoRunThatRanIsMet) {
  RowCounts c;
  c.skipped = 7;
  ExpectVerdict(JudgeRow(c, "INV-ACK", false, true), Verdict::kSkipped, true, "skipped (7 runs)");
  ExpectVerdict(JudgeRow(RowCounts{}, "INV-ACK", false, true), Verdict::kNoRuns, true,
                "no runs in this shard");
}

}  // namespace verdict_test
}  // namespace
}  // namespace repartsim::campaign
