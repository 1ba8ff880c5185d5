#include "tools/repartsim/verbs.h"

namespace repartsim::tools {

void AddRulesVerb(CLI::App& app, int* exit_code) {
  AddUnbuiltVerb(app, "rules", "List the protocol rule switches and their defaults per profile", exit_code);
}

}  // namespace repartsim::tools
