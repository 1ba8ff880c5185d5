#include "tools/repartsim/verbs.h"

namespace repartsim::tools {

void AddMergeVerb(CLI::App& app, int* exit_code) {
  AddUnbuiltVerb(app, "merge", "Merge sweep reports from several shards", exit_code);
}

}  // namespace repartsim::tools
