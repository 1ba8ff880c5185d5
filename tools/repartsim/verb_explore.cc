#include "tools/repartsim/verbs.h"

namespace repartsim::tools {

void AddExploreVerb(CLI::App& app, int* exit_code) {
  AddUnbuiltVerb(app, "explore", "Explore all interleavings of a small scenario", exit_code);
}

}  // namespace repartsim::tools
