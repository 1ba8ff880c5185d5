#include "tools/repartsim/verbs.h"

namespace repartsim::tools {

void AddRunVerb(CLI::App& app, int* exit_code) {
  AddUnbuiltVerb(app, "run", "Run one scenario with one seed", exit_code);
}

}  // namespace repartsim::tools
