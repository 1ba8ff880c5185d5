#include "tools/repartsim/verbs.h"

namespace repartsim::tools {

void AddPlanVerb(CLI::App& app, int* exit_code) {
  AddUnbuiltVerb(app, "plan", "Plan a repartition statement: groups, regions and the resulting rule", exit_code);
}

}  // namespace repartsim::tools
