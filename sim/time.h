// Virtual time for the simulator: integer milliseconds, never read from a wall clock.
// SimTime is a point on the simulated clock (0 = start of run), Duration a signed span.
// Contract: arithmetic is plain int64 arithmetic on ms; callers keep values far from
// overflow (runs are bounded by time_ms_max). Mixing the two is type-checked:
// SimTime + Duration -> SimTime, SimTime - SimTime -> Duration, SimTime + SimTime is an error.
#pragma once

#include <compare>
#include <cstdint>

namespace repartsim::sim {

struct Duration {
  int64_t ms = 0;
  friend constexpr auto operator<=>(Duration, Duration) = default;
};

struct SimTime {
  int64_t ms = 0;
  friend constexpr auto operator<=>(SimTime, SimTime) = default;
};

constexpr Duration Ms(int64_t n) { return Duration{n}; }
constexpr Duration Seconds(int64_t n) { return Duration{n * 1000}; }
constexpr SimTime AtMs(int64_t n) { return SimTime{n}; }

constexpr Duration operator+(Duration a, Duration b) { return Duration{a.ms + b.ms}; }
constexpr Duration operator-(Duration a, Duration b) { return Duration{a.ms - b.ms}; }
constexpr Duration operator*(Duration a, int64_t k) { return Duration{a.ms * k}; }
constexpr Duration operator*(int64_t k, Duration a) { return Duration{a.ms * k}; }
constexpr Duration& operator+=(Duration& a, Duration b) {
  a.ms += b.ms;
  return a;
}
constexpr Duration& operator-=(Duration& a, Duration b) {
  a.ms -= b.ms;
  return a;
}

constexpr SimTime operator+(SimTime t, Duration d) { return SimTime{t.ms + d.ms}; }
constexpr SimTime operator+(Duration d, SimTime t) { return SimTime{t.ms + d.ms}; }
constexpr SimTime operator-(SimTime t, Duration d) { return SimTime{t.ms - d.ms}; }
constexpr Duration operator-(SimTime a, SimTime b) { return Duration{a.ms - b.ms}; }
constexpr SimTime& operator+=(SimTime& t, Duration d) {
  t.ms += d.ms;
  return t;
}

constexpr SimTime Max(SimTime a, SimTime b) { return a < b ? b : a; }
constexpr SimTime Min(SimTime a, SimTime b) { return a < b ? a : b; }

}  // namespace repartsim::sim
