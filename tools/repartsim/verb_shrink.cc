#include "tools/repartsim/verbs.h"

namespace repartsim::tools {

void AddShrinkVerb(CLI::App& app, int* exit_code) {
  AddUnbuiltVerb(app, "shrink", "Shrink a failing run to a minimal scenario", exit_code);
}

}  // namespace repartsim::tools
