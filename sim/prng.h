// Prng: the simulator's only source of randomness. Algorithm (pinned by test vectors in
// tests/sim/prng_test.cc; changing it changes every seed's run):
//   seeding:  s[0..3] = four successive outputs of splitmix64 starting from state = seed
//   Next():   xoshiro256** 1.0 (Blackman & Vigna): result = rotl(s1 * 5, 7) * 9, then the
//             standard xoshiro256 state transition.
//   Below(n): unbiased by rejection: draw r until r >= (2^64 - n) % n, return r % n.
//   Fork():   one Next() draw seeds the child through splitmix64, so forking in a fixed order
//             gives each subsystem an independent stream.
// Value type: copying a Prng copies its position. draw_count() counts Next() calls.
#pragma once

#include <cstdint>

#include "sim/assert.h"
#include "sim/ratio.h"

namespace repartsim::sim {

// One splitmix64 step: advances `state` and returns the mixed output.
constexpr uint64_t SplitMix64(uint64_t& state) {
  state += 0x9e3779b97f4a7c15ULL;
  uint64_t z = state;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

class Prng {
 public:
  explicit Prng(uint64_t seed) {
    uint64_t sm = seed;
    for (uint64_t& word : s_) word = SplitMix64(sm);
  }

  uint64_t Next() {
    ++draw_count_;
    const uint64_t result = Rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = Rotl(s_[3], 45);
    return result;
  }

  // Returns a uniform value in [0, n). REQUIRES: n > 0.
  uint64_t Below(uint64_t n) {
    REPARTSIM_ASSERT(n > 0);
    const uint64_t threshold = (0 - n) % n;  // == 2^64 mod n
    for (;;) {
      const uint64_t r = Next();
      if (r >= threshold) return r % n;
    }
  }

  // True with probability p.num/p.den. Never and Always draw nothing.
  bool Chance(Ratio p) {
    REPARTSIM_ASSERT(p.den > 0);
    REPARTSIM_ASSERT(p.num <= p.den);
    if (p.num == 0) return false;
    if (p.num == p.den) return true;
    return Below(p.den) < p.num;
  }

  // A child generator; consumes exactly one draw of this generator.
  Prng Fork() { return Prng(Next()); }

  uint64_t draw_count() const { return draw_count_; }

 private:
  static constexpr uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

  uint64_t s_[4];
  uint64_t draw_count_ = 0;
};

}  // namespace repartsim::sim
