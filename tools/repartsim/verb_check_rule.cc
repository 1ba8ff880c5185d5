#include "tools/repartsim/verbs.h"

namespace repartsim::tools {

void AddCheckRuleVerb(CLI::App& app, int* exit_code) {
  AddUnbuiltVerb(app, "check-rule", "Check a partition rule (CREATE TABLE) for completeness and disjointness", exit_code);
}

}  // namespace repartsim::tools
