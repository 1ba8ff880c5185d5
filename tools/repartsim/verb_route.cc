#include "tools/repartsim/verbs.h"

namespace repartsim::tools {

void AddRouteVerb(CLI::App& app, int* exit_code) {
  AddUnbuiltVerb(app, "route", "Route a row on the row path and the filter path", exit_code);
}

}  // namespace repartsim::tools
