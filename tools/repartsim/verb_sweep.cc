#include "tools/repartsim/verbs.h"

namespace repartsim::tools {

void AddSweepVerb(CLI::App& app, int* exit_code) {
  AddUnbuiltVerb(app, "sweep", "Run a scenario over many seeds", exit_code);
}

}  // namespace repartsim::tools
