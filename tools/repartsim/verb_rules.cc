// `repartsim rules`: the protocol rule switches (model::AllRules(), docs/rules.md), one
// row each in Rule order: name, default in `greptime`, default in `reference`, the GreptimeDB
// pull request that added a historical switch's protection ("-" for the others), description.
// `--json` prints an array of {name, description, greptime, reference, fixed_by} (keys in that
// order; fixed_by is null for a switch that is not historical).
// Exit 0; 64 on bad flags.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "model/protocol.h"
#include "model/rules.h"
#include "tools/repartsim/exit_code.h"
#include "tools/repartsim/verbs.h"

namespace repartsim::tools {

namespace {

const char* OnOff(bool on) { return on ? "on" : "off"; }

int RunRules(bool json) {
  if (json) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const model::RuleInfo& info : model::AllRules()) {
      out.push_back(
          {{"name", info.name},
           {"description", info.description},
           {"greptime", info.greptime},
           {"reference", info.reference},
           {"fixed_by", info.fixed_by == nullptr ? nlohmann::ordered_json(nullptr)
                                                 : nlohmann::ordered_json(info.fixed_by)}});
    }
    std::printf("%s\n", out.dump(2).c_str());
    return kExitPass;
  }
  std::printf("%-30s %-9s %-10s %-9s %s\n", "rule", "greptime", "reference", "fixed-by",
              "description");
  for (const model::RuleInfo& info : model::AllRules()) {
    std::printf("%-30s %-9s %-10s %-9s %s\n", info.name, OnOff(info.greptime),
                OnOff(info.reference), info.fixed_by == nullptr ? "-" : info.fixed_by,
                info.description);
  }
  return kExitPass;
}

}  // namespace

void AddRulesVerb(CLI::App& app, int* exit_code) {
  auto json = std::make_shared<bool>(false);
  CLI::App* sub =
      app.add_subcommand("rules", "List the protocol rule switches and their defaults per profile");
  sub->add_flag("--json", *json,
                "Print a JSON array of {name, description, greptime, reference, fixed_by}");
  sub->callback([json, exit_code] { *exit_code = RunRules(*json); });
}

}  // namespace repartsim::tools
