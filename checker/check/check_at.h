// Where a checker runs: the simulation step and the virtual time (ms) stamped on every
// Violation it returns. Plain data so checkers stay free of the cluster and the engine.
#pragma once

#include <cstdint>
#include <string>

namespace repartsim::check {

struct CheckAt {
  uint64_t step = 0;
  int64_t time_ms = 0;
};

// "1 row", "2 rows": counts in violation messages.
inline std::string Plural(size_t count, const char* noun) {
  return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

}  // namespace repartsim::check
