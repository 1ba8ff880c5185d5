#include "tools/repartsim/verbs.h"

namespace repartsim::tools {

void AddReplayVerb(CLI::App& app, int* exit_code) {
  AddUnbuiltVerb(app, "replay", "Replay a run from its seed or recorded choice list", exit_code);
}

}  // namespace repartsim::tools
