#include "tools/repartsim/verbs.h"

namespace repartsim::tools {

void AddPruneVerb(CLI::App& app, int* exit_code) {
  AddUnbuiltVerb(app, "prune", "Prune regions for a WHERE predicate", exit_code);
}

}  // namespace repartsim::tools
