#include "checker/scenario/crash_sites.h"

#include <algorithm>

#include "model/metasrv/meta_procedure.h"

namespace repartsim::scenario {

namespace {

// From the procedures' own state-name tables (model/metasrv/meta_procedure.h).
std::vector<std::string> BuildStates() {
  std::vector<std::string> states;
  for (const model::ProcedureStateTable& p : model::kMetaProcedureStates) {
    for (std::string_view state : p.states) {
      states.push_back(std::string(p.type) + "." + std::string(state));
    }
  }
  std::sort(states.begin(), states.end());
  return states;
}

bool SortedContains(const std::vector<std::string>& sorted, std::string_view item) {
  return std::binary_search(sorted.begin(), sorted.end(), item,
                            [](std::string_view a, std::string_view b) { return a < b; });
}

std::vector<std::string> BuildSites() {
  std::vector<std::string> sites = {
      "datanode.write.after_wal",      "datanode.create.after_manifest",
      "datanode.drop.after_manifest",  "datanode.flush.after_sst",
      "datanode.flush.after_manifest", "datanode.enter_staging.after_clear",
      "datanode.remap.after_blob",     "datanode.apply_staging.after_edit",
      "datanode.compact.after_sst",
  };
  for (const std::string& state : BuildStates()) {
    for (const char* suffix : {"before_persist", "after_persist"}) {
      sites.push_back(state + "." + suffix);
    }
  }
  std::sort(sites.begin(), sites.end());
  return sites;
}

}  // namespace

const std::vector<std::string>& KnownCrashSites() {
  static const std::vector<std::string> sites = BuildSites();
  return sites;
}

bool IsKnownCrashSite(std::string_view site) { return SortedContains(KnownCrashSites(), site); }

const std::vector<std::string>& KnownProcedureStates() {
  static const std::vector<std::string> states = BuildStates();
  return states;
}

bool IsKnownProcedureState(std::string_view state) {
  return SortedContains(KnownProcedureStates(), state);
}

}  // namespace repartsim::scenario
