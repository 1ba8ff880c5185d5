#include "sim/json_text.h"

#include <nlohmann/json.hpp>

#include "sim/assert.h"
#include "sim/utf8.h"

namespace repartsim::sim {

std::string JsonText(const nlohmann::json& value, int indent) {
  return value.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string JsonText(const nlohmann::ordered_json& value, int indent) {
  return value.dump(indent, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

std::string JsonSafe(std::string_view text) {
  if (!FirstInvalidUtf8(text).has_value()) return std::string(text);
  const std::string safe = nlohmann::json::parse(JsonText(nlohmann::json(text))).get<std::string>();
  REPARTSIM_ASSERT(!FirstInvalidUtf8(safe).has_value());
  return safe;
}

}  // namespace repartsim::sim
