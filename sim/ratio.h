// Ratio: an exact probability num/den for fault decisions ("1/100" in YAML and on the CLI).
// Invariant of a valid Ratio: den > 0 and num <= den. No floating point anywhere, so a
// decision never depends on rounding. Never() (0/1) and Always() (1/1) are special: drivers
// decide them without consuming a choice or a draw.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "sim/result.h"

namespace repartsim::sim {

struct Ratio {
  uint32_t num = 0;
  uint32_t den = 1;

  static constexpr Ratio Never() { return Ratio{0, 1}; }
  static constexpr Ratio Always() { return Ratio{1, 1}; }

  // Returns true iff the ratio is 0 (num == 0) / 1 (num == den).
  constexpr bool IsNever() const { return num == 0; }
  constexpr bool IsAlways() const { return num == den && den != 0; }
  constexpr bool IsValid() const { return den > 0 && num <= den; }

  // Same probability (1/2 == 2/4).
  friend constexpr bool operator==(Ratio a, Ratio b) {
    return static_cast<uint64_t>(a.num) * b.den == static_cast<uint64_t>(b.num) * a.den;
  }

  // "num/den" exactly as stored.
  std::string ToString() const;
};

// Parses "N/D" (decimal, 0 <= N <= D, 0 < D < 2^32), or "0" / "1" as shorthands.
// Errors carry `where` with the column advanced to the offending character. Messages:
//   "ratio: expected N/D, got 'TEXT'"            (syntax)
//   "ratio: denominator must be positive in 'TEXT'"
//   "ratio: numerator exceeds denominator in 'TEXT'"
//   "ratio: number too large in 'TEXT'"
Result<Ratio> ParseRatio(std::string_view text, SourceLocation where = {});

}  // namespace repartsim::sim
