// Goal: pin the Prng algorithm (splitmix64 seeding + xoshiro256**) so any change of
// algorithm, seeding or fork rule is caught, and check Below/Chance/Fork contracts.
// Method: compare against vectors computed by an independent Python implementation, and
// count draws; distribution checks use exact counts over fixed seeds.
#include "sim/prng.h"

#include <gtest/gtest.h>

#include <vector>

namespace repartsim::sim {
namespace {
namespace prng_test {

TEST(PrngTest, SplitMix64MatchesReferenceVectors) {
  uint64_t state = 0;
  EXPECT_EQ(SplitMix64(state), 0xe220a8397b1dcdafULL);
  EXPECT_EQ(SplitMix64(state), 0x6e789e6aa1b965f4ULL);
}

TEST(PrngTest, NextMatchesPinnedVectorsForSeeds0And1And42) {
  const std::vector<std::pair<uint64_t, std::vector<uint64_t>>> vectors = {
      {0,
       {0x99ec5f36cb75f2b4ULL, 0xbf6e1f784956452aULL, 0x1a5f849d4933e6e0ULL,
        0x6aa594f1262d2d2cULL}},
      {1,
       {0xb3f2af6d0fc710c5ULL, 0x853b559647364ceaULL, 0x92f89756082a4514ULL,
        0x642e1c7bc266a3a7ULL}},
      {42,
       {0x15780b2e0c2ec716ULL, 0x6104d9866d113a7eULL, 0xae17533239e499a1ULL,
        0xecb8ad4703b360a1ULL}},
  };
  for (const auto& [seed, expected] : vectors) {
    Prng prng(seed);
    for (uint64_t want : expected) EXPECT_EQ(prng.Next(), want) << "seed " << seed;
    EXPECT_EQ(prng.draw_count(), 4u);
  }
}

TEST(PrngTest, CopyContinuesFromTheSamePosition) {
  Prng a(7);
  a.Next();
  Prng b = a;
  EXPECT_EQ(a.Next(), b.Next());
  EXPECT_EQ(a.draw_count(), b.draw_count());
}

TEST(PrngTest, BelowStaysInRangeAndCoversAllValues) {
  Prng prng(3);
  std::vector<int> hits(7, 0);
  for (int i = 0; i < 7000; ++i) {
    const uint64_t v = prng.Below(7);
    ASSERT_LT(v, 7u);
    ++hits[v];
  }
  for (int h : hits) {
    EXPECT_GT(h, 850);
    EXPECT_LT(h, 1150);
  }
  EXPECT_EQ(prng.Below(1), 0u);
}

TEST(PrngTest, ChanceNeverAndAlwaysDrawNothing) {
  Prng prng(5);
  EXPECT_FALSE(prng.Chance(Ratio::Never()));
  EXPECT_TRUE(prng.Chance(Ratio::Always()));
  EXPECT_TRUE(prng.Chance(Ratio{3, 3}));
  EXPECT_EQ(prng.draw_count(), 0u);
}

TEST(PrngTest, ChanceOneQuarterHitsAboutAQuarterWithOneDrawEach) {
  Prng prng(11);
  int yes = 0;
  for (int i = 0; i < 4000; ++i) yes += prng.Chance(Ratio{1, 4}) ? 1 : 0;
  EXPECT_GT(yes, 900);
  EXPECT_LT(yes, 1100);
  EXPECT_EQ(prng.draw_count(), 4000u);
}

TEST(PrngTest, ForkConsumesOneDrawAndGivesAnIndependentStream) {
  Prng parent(9);
  Prng reference(9);
  Prng child = parent.Fork();
  EXPECT_EQ(parent.draw_count(), 1u);
  EXPECT_EQ(child.draw_count(), 0u);
  // The child is Prng(first draw of the parent).
  Prng expected_child(reference.Next());
  EXPECT_EQ(child.Next(), expected_child.Next());
  EXPECT_NE(parent.Next(), child.Next());
}

}  // namespace prng_test
}  // namespace
}  // namespace repartsim::sim
