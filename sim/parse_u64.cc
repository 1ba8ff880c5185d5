#include "sim/parse_u64.h"

#include <charconv>
#include <system_error>

namespace repartsim::sim {

std::optional<uint64_t> ParseU64(std::string_view text, int base) {
  if (base == 16 && text.substr(0, 2) == "0x") text.remove_prefix(2);
  uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

}  // namespace repartsim::sim
