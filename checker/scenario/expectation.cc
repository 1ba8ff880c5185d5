// Expectation (scenario.h): how a run is judged against `expect`.
#include <algorithm>

#include "checker/scenario/scenario.h"

namespace repartsim::scenario {

std::string Expectation::ToString() const {
  std::string out = pass ? "pass" : "violation: " + invariant;
  for (size_t i = 0; i < tolerate.size(); ++i) {
    out += (i == 0 ? " (tolerates " : ", ") + tolerate[i];
  }
  return out + (tolerate.empty() ? "" : ")");
}

bool Expectation::Allows(const std::string& name) const {
  return name == "READ-ANOMALY" || (!pass && name == invariant) ||
         std::find(tolerate.begin(), tolerate.end(), name) != tolerate.end();
}

}  // namespace repartsim::scenario
