// Goal: pin the Hasher algorithm (state fingerprints and trace hashes depend on it) and check
// that the length prefix separates string boundaries.
// Method: compare against vectors from an independent Python implementation of the
// documented algorithm; check equal inputs hash equal and shifted boundaries differ.
#include "sim/fingerprint.h"

#include <gtest/gtest.h>

namespace repartsim::sim {
namespace {
namespace fingerprint_test {

TEST(HasherTest, MatchesPinnedVectors) {
  EXPECT_EQ(Hasher().Finish(), 0xf52a15e9a9b5e89bULL);
  EXPECT_EQ(Hasher().Add(uint64_t{1}).Finish(), 0xec73ad64f474778dULL);
  EXPECT_EQ(Hasher().Add(std::string_view("hello, world!")).Finish(), 0x4e9fd0546e4582f5ULL);
  EXPECT_EQ(Hasher().Add(std::string_view("")).Finish(), 0xe8762870b5f4a9a7ULL);
  EXPECT_EQ(Hasher().Add(uint64_t{42}).Add("repartsim").Finish(), 0x9b0a3a31ad432e88ULL);
}

TEST(HasherTest, StringBoundariesChangeTheHash) {
  EXPECT_NE(Hasher().Add("ab").Add("c").Finish(), Hasher().Add("a").Add("bc").Finish());
  EXPECT_NE(Hasher().Add("").Finish(), Hasher().Finish());
}

TEST(HasherTest, FinishDoesNotChangeTheState) {
  Hasher h;
  h.Add(uint64_t{5});
  const uint64_t first = h.Finish();
  EXPECT_EQ(h.Finish(), first);
  h.Add(uint64_t{6});
  EXPECT_NE(h.Finish(), first);
}

TEST(HasherTest, SignedAndNarrowIntegersHashAsTheirU64Value) {
  EXPECT_EQ(Hasher().Add(int64_t{-1}).Finish(), Hasher().Add(~uint64_t{0}).Finish());
  EXPECT_EQ(Hasher().Add(uint32_t{7}).Finish(), Hasher().Add(uint64_t{7}).Finish());
  EXPECT_EQ(Hasher().Add(true).Finish(), Hasher().Add(uint64_t{1}).Finish());
}

}  // namespace fingerprint_test
}  // namespace
}  // namespace repartsim::sim
