// Goal: ParseU64 (sim/parse_u64.h) takes the whole token as an unsigned 64-bit
// number in base 10 or 16 (with or without "0x") and refuses everything else.
#include "sim/parse_u64.h"

#include <gtest/gtest.h>

namespace repartsim::sim {
namespace {

TEST(ParseU64Test, TakesTheWholeTokenInRange) {
  EXPECT_EQ(ParseU64("0"), 0u);
  EXPECT_EQ(ParseU64("18446744073709551615"), UINT64_MAX);
  EXPECT_EQ(ParseU64("0x00000000000000ff", 16), 255u);
  EXPECT_EQ(ParseU64("ff", 16), 255u);
  for (const char* bad : {"", "-1", "+1", " 1", "1 ", "1x", "18446744073709551616", "0x1"}) {
    EXPECT_FALSE(ParseU64(bad).has_value()) << bad;
  }
  EXPECT_FALSE(ParseU64("0x", 16).has_value());
  EXPECT_FALSE(ParseU64("10000000000000000", 16).has_value());
}

}  // namespace
}  // namespace repartsim::sim
