// Shared helper of the fingerprint-completeness tests: every field of a node that affects its
// future behaviour must change its fingerprint. A test lists one mutation per field (a name and
// a function that changes that field alone, through the public interface or the class's
// sim::FingerprintSeam) and ExpectEachMutationChangesFingerprint applies each to a copy of a
// base value, requiring the copy's fingerprint to differ from the base's.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "sim/fingerprint.h"

namespace repartsim::model::testing {

template <class T>
struct Mutation {
  std::string field;
  std::function<void(T&)> mutate;
};

// `fingerprint(const T&)` returns the value's fingerprint.
template <class T, class Fingerprint>
void ExpectEachMutationChangesFingerprint(const T& base, Fingerprint fingerprint,
                                          const std::vector<Mutation<T>>& mutations) {
  const uint64_t before = fingerprint(base);
  T copy = base;
  ASSERT_EQ(fingerprint(copy), before) << "a copy must fingerprint like its original";
  for (const Mutation<T>& m : mutations) {
    T changed = base;
    m.mutate(changed);
    EXPECT_NE(fingerprint(changed), before) << "the fingerprint misses field " << m.field;
  }
}

// The fingerprint of a value with a `void Hash(sim::Hasher&) const`.
template <class T>
uint64_t HashOf(const T& value) {
  sim::Hasher h;
  value.Hash(h);
  return h.Finish();
}

}  // namespace repartsim::model::testing
