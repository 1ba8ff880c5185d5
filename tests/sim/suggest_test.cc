// Goal: "did you mean" (sim/suggest.h): the edit distance counts insertions, deletions,
// substitutions and adjacent swaps as one each; the closest candidate within a third of the
// word's length is offered, the first of equals; a word like nothing gets no suggestion.
// Method: exact values.
#include "sim/suggest.h"

#include <gtest/gtest.h>

namespace repartsim::sim {
namespace {
namespace suggest_test {

TEST(SuggestTest, EditDistanceCountsEachEditOnce) {
  EXPECT_EQ(EditDistance("", ""), 0u);
  EXPECT_EQ(EditDistance("sweep", "sweep"), 0u);
  EXPECT_EQ(EditDistance("swep", "sweep"), 1u);    // insertion
  EXPECT_EQ(EditDistance("sweeep", "sweep"), 1u);  // deletion
  EXPECT_EQ(EditDistance("sweap", "sweep"), 1u);   // substitution
  EXPECT_EQ(EditDistance("swepe", "sweep"), 1u);   // adjacent swap
  EXPECT_EQ(EditDistance("abc", ""), 3u);
  EXPECT_EQ(EditDistance("kitten", "sitting"), 3u);
}

TEST(SuggestTest, TheClosestWithinAThirdIsOffered) {
  const std::vector<std::string> verbs = {"run", "replay", "sweep", "merge", "explore", "shrink"};
  EXPECT_EQ(Closest("swep", verbs), "sweep");
  EXPECT_EQ(Closest("explroe", verbs), "explore");
  EXPECT_EQ(Closest("rn", verbs), "run");  // one edit is always allowed
  EXPECT_EQ(Closest("banana", verbs), "");
  EXPECT_EQ(Closest("fenced-read", {"fenced-reads", "route-fenced-reads"}), "fenced-reads");
  EXPECT_EQ(Closest("ab", {"aa", "bb"}), "aa");  // the first of equals
  EXPECT_EQ(DidYouMean("--sed", {"--seed", "--seeds"}), " (did you mean '--seed'?)");
  EXPECT_EQ(DidYouMean("--zzzzzz", {"--seed"}), "");
}

}  // namespace suggest_test
}  // namespace
}  // namespace repartsim::sim
