// Goal: the fingerprint-completeness check itself fails on a planted gap: a value whose Hash
// leaves out one field is reported with that field's name, and a complete Hash passes.
// Method: two toy values with two fields each, the shared helper run under gtest-spi.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <cstdint>

#include "tests/model/fingerprint_completeness.h"

namespace repartsim::model::testing {
namespace {
namespace fingerprint_completeness_check_test {

struct Complete {
  uint64_t a = 1;
  uint64_t b = 2;
  void Hash(sim::Hasher& h) const { h.Add(a).Add(b); }
};

struct PlantedGap {
  uint64_t a = 1;
  uint64_t b = 2;
  void Hash(sim::Hasher& h) const { h.Add(a); }  // planted: `b` is not hashed
};

TEST(FingerprintCompletenessCheckTest, ACompleteHashPasses) {
  ExpectEachMutationChangesFingerprint<Complete>(
      Complete{}, HashOf<Complete>,
      {{"a", [](Complete& c) { ++c.a; }}, {"b", [](Complete& c) { ++c.b; }}});
}

TEST(FingerprintCompletenessCheckTest, APlantedGapIsReportedWithItsField) {
  EXPECT_NONFATAL_FAILURE(
      ExpectEachMutationChangesFingerprint<PlantedGap>(
          PlantedGap{}, HashOf<PlantedGap>,
          {{"a", [](PlantedGap& p) { ++p.a; }}, {"b", [](PlantedGap& p) { ++p.b; }}}),
      "the fingerprint misses field b");
}

}  // namespace fingerprint_completeness_check_test
}  // namespace
}  // namespace repartsim::model::testing
