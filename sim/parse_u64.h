// ParseU64: the whole of a token as an unsigned 64-bit integer. One definition for the
// scenario loader, the campaign layer and the verbs (seed ranges, shard indices, trace hashes).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace repartsim::sim {

// Returns `text` as a number in `base` (10 or 16; base 16 also takes a leading "0x"), or
// nullopt when it is empty, has any other character or does not fit in 64 bits.
std::optional<uint64_t> ParseU64(std::string_view text, int base = 10);

}  // namespace repartsim::sim
