#include "checker/scenario/seed_range.h"

#include "sim/parse_u64.h"

namespace repartsim::scenario {

std::optional<std::pair<uint64_t, uint64_t>> ParseSeedRange(std::string_view text) {
  const size_t dots = text.find("..");
  if (dots == std::string_view::npos) return std::nullopt;
  const std::optional<uint64_t> first = sim::ParseU64(text.substr(0, dots));
  const std::optional<uint64_t> last = sim::ParseU64(text.substr(dots + 2));
  if (!first || !last || *first > *last) return std::nullopt;
  return std::make_pair(*first, *last);
}

}  // namespace repartsim::scenario
