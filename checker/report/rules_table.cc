#include "checker/report/rules_table.h"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "model/protocol/protocol.h"
#include "model/protocol/rules.h"
#include "sim/assert.h"
#include "sim/json_text.h"

namespace repartsim::report {

namespace {

const char* OnOff(bool on) { return on ? "on" : "off"; }

std::string Row(const char* name, const char* greptime, const char* reference, const char* fixed_by,
                const char* description) {
  const int n = std::snprintf(nullptr, 0, "%-30s %-9s %-10s %-9s %s\n", name, greptime, reference,
                              fixed_by, description);
  REPARTSIM_ASSERT(n > 0);
  std::string out(static_cast<size_t>(n) + 1, '\0');
  std::snprintf(out.data(), out.size(), "%-30s %-9s %-10s %-9s %s\n", name, greptime, reference,
                fixed_by, description);
  out.pop_back();  // the terminating NUL
  return out;
}

}  // namespace

std::string RulesText() {
  std::string out = Row("rule", "greptime", "reference", "fixed-by", "description");
  for (const model::RuleInfo& info : model::AllRules()) {
    out += Row(info.name, OnOff(info.greptime), OnOff(info.reference),
               info.fixed_by == nullptr ? "-" : info.fixed_by, info.description);
  }
  REPARTSIM_ASSERT(!out.empty() && out.back() == '\n');
  return out;
}

std::string RulesJson() {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const model::RuleInfo& info : model::AllRules()) {
    out.push_back({{"name", info.name},
                   {"description", info.description},
                   {"greptime", info.greptime},
                   {"reference", info.reference},
                   {"fixed_by", info.fixed_by == nullptr ? nlohmann::ordered_json(nullptr)
                                                         : nlohmann::ordered_json(info.fixed_by)}});
  }
  REPARTSIM_ASSERT(out.size() == model::kRuleCount);
  return sim::JsonText(out, 2) + "\n";
}

}  // namespace repartsim::report
