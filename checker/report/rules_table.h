// What `repartsim rules` prints: the protocol rule switches (model::AllRules(), docs/rules.md),
// one row each in Rule order: name, default in `greptime`, default in `reference`, the
// GreptimeDB pull request that added a historical switch's protection ("-" for the others),
// description.
#pragma once

#include <string>

namespace repartsim::report {

// The header line and one line per rule, each ending in '\n'.
std::string RulesText();

// A JSON array of {name, description, greptime, reference, fixed_by} (keys in that order;
// fixed_by is null for a switch that is not historical), indented by 2, ending in '\n'.
std::string RulesJson();

}  // namespace repartsim::report
