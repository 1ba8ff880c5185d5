// A seed range "A..B" (0 <= A <= B < 2^64, both inclusive): a scenario's `seeds:` and the
// --seeds flag of sweep and mutants read it with this one parser.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>

namespace repartsim::scenario {

// nullopt for anything but two decimal numbers joined by "..", the first not above the second.
std::optional<std::pair<uint64_t, uint64_t>> ParseSeedRange(std::string_view text);

}  // namespace repartsim::scenario
