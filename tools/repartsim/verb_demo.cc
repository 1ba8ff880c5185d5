#include "tools/repartsim/verbs.h"

namespace repartsim::tools {

void AddDemoVerb(CLI::App& app, int* exit_code) {
  AddUnbuiltVerb(app, "demo", "Sweep the engine's toy system over a few seeds", exit_code);
}

}  // namespace repartsim::tools
