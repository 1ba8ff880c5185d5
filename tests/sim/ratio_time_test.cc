// Goal: Ratio parsing (every error message pinned, with its column) and SimTime/Duration
// arithmetic. Method: table of inputs with exact expected values or Error::Format() strings.
#include <gtest/gtest.h>

#include "sim/ratio.h"
#include "sim/time.h"

namespace repartsim::sim {
namespace {
namespace ratio_time_test {

TEST(RatioTest, ParsesFractionsAndShorthands) {
  EXPECT_EQ(ParseRatio("1/100").value().num, 1u);
  EXPECT_EQ(ParseRatio("1/100").value().den, 100u);
  EXPECT_TRUE(ParseRatio("0").value().IsNever());
  EXPECT_TRUE(ParseRatio("1").value().IsAlways());
  EXPECT_TRUE(ParseRatio("5/5").value().IsAlways());
  EXPECT_EQ(ParseRatio("2/4").value(), (Ratio{1, 2}));
  EXPECT_EQ(ParseRatio("2/4").value().ToString(), "2/4");
}

TEST(RatioTest, RejectsBadTextWithLocatedMessages) {
  const SourceLocation at{"s.yaml", 3, 10};
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "s.yaml:3:10: error: ratio: expected N/D, got ''"},
      {"0.5", "s.yaml:3:10: error: ratio: expected N/D, got '0.5'"},
      {"1/", "s.yaml:3:12: error: ratio: expected N/D, got '1/'"},
      {"-1/2", "s.yaml:3:10: error: ratio: expected N/D, got '-1/2'"},
      {"1/0", "s.yaml:3:12: error: ratio: denominator must be positive in '1/0'"},
      {"3/2", "s.yaml:3:10: error: ratio: numerator exceeds denominator in '3/2'"},
      {"1/99999999999", "s.yaml:3:12: error: ratio: number too large in '1/99999999999'"},
  };
  for (const auto& [text, message] : cases) {
    Result<Ratio> r = ParseRatio(text, at);
    ASSERT_FALSE(r.ok()) << text;
    EXPECT_EQ(r.error().Format(), message);
  }
}

TEST(TimeTest, ArithmeticKeepsPointsAndSpansApart) {
  const SimTime t = AtMs(100) + Ms(50);
  EXPECT_EQ(t.ms, 150);
  EXPECT_EQ((t - AtMs(20)).ms, 130);
  EXPECT_EQ((t - Ms(150)).ms, 0);
  EXPECT_EQ(Seconds(2).ms, 2000);
  EXPECT_EQ((Ms(3) * 4).ms, 12);
  EXPECT_LT(AtMs(1), AtMs(2));
  EXPECT_EQ(Max(AtMs(1), AtMs(9)).ms, 9);
  EXPECT_EQ(Min(AtMs(1), AtMs(9)).ms, 1);
}

}  // namespace ratio_time_test
}  // namespace
}  // namespace repartsim::sim
