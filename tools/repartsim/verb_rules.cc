// `repartsim rules`: the protocol rule switches as report::RulesText() (or RulesJson() with
// `--json`) prints them. Exit 0; 64 on bad flags.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <string>

#include "checker/report/rules_table.h"
#include "tools/repartsim/exit_code.h"
#include "tools/repartsim/verbs.h"

namespace repartsim::tools {

namespace {

int RunRules(bool json) {
  const std::string out = json ? report::RulesJson() : report::RulesText();
  std::fwrite(out.data(), 1, out.size(), stdout);
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
