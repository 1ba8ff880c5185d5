#include "tools/repartsim/cli_numbers.h"

#include <cmath>
#include <cstdlib>
#include <string>

#include "model/sql/parser.h"
#include "sim/parse_u64.h"

namespace repartsim::tools {

CLI::Validator IntegerIn(uint64_t min, uint64_t max) {
  const std::string range = "an integer in " + std::to_string(min) + ".." + std::to_string(max);
  return CLI::Validator(
      [min, max, range](std::string& text) -> std::string {
        const std::optional<uint64_t> n = sim::ParseU64(text);
        if (n && *n >= min && *n <= max) return "";
        return "must be " + range + ", got '" + text + "'";
      },
      "UINT", "integer range");
}

CLI::Validator SecondsUpTo(double max) {
  const std::string range =
      "a number of seconds in 0.." + std::to_string(static_cast<int64_t>(max));
  return CLI::Validator(
      [max, range](std::string& text) -> std::string {
        char* end = nullptr;
        const bool digits =
            !text.empty() && (std::isdigit(static_cast<unsigned char>(text[0])) || text[0] == '.');
        const double value = digits ? std::strtod(text.c_str(), &end) : 0;
        if (digits && end == text.c_str() + text.size() && std::isfinite(value) && value <= max) {
          return "";
        }
        return "must be " + range + ", got '" + text + "'";
      },
      "SECONDS", "seconds range");
}

CLI::Validator DurationAsSeconds(double max) {
  return CLI::Validator(
      [max](std::string& text) -> std::string {
        auto ms = model::sql::ParseDurationMs(text);
        if (!ms.ok() || ms.value() < 0 || static_cast<double>(ms.value()) / 1000.0 > max) {
          return "must be a duration such as 90s, 5m or 500ms, at most a year, got '" + text + "'";
        }
        text = std::to_string(static_cast<double>(ms.value()) / 1000.0);
        return "";
      },
      "DURATION", "duration");
}

void RequireNonEmptyValues(CLI::App& app) {
  const CLI::Validator non_empty(
      [](std::string& text) -> std::string {
        return text.empty() ? "must not be empty (leave the flag out instead)" : "";
      },
      "", "non-empty");
  for (CLI::Option* option : app.get_options()) {
    if (option->get_type_size() > 0) option->check(non_empty);
  }
  for (CLI::App* sub : app.get_subcommands({})) RequireNonEmptyValues(*sub);
}

}  // namespace repartsim::tools
