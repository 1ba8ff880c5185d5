// The scenario files a campaign (sweep, mutants) covers: the paths named, files as given and
// directories expanded to every *.yaml under them (recursively, in sorted order).
#pragma once

#include <string>
#include <vector>

#include "sim/result.h"

namespace repartsim::campaign {

// Errors name the directory: "cannot read directory D: ...", "directory D holds no *.yaml
// scenario", "cannot read F: ..." for a *.yaml entry that cannot be read (a symlink loop);
// `*culprit` is set to the named path the error is about.
sim::Result<std::vector<std::string>> ScenarioFiles(const std::vector<std::string>& named,
                                                    std::string* culprit);

}  // namespace repartsim::campaign
