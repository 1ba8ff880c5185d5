#include "model/scenario/crash_sites.h"

#include <algorithm>

namespace repartsim::scenario {

namespace {

struct ProcedureStates {
  const char* type;
  std::vector<const char*> states;
};

// GreptimeDB's state names (docs/protocol.md sections 3, 10.3 and 10.4).
const std::vector<ProcedureStates>& Procedures() {
  static const std::vector<ProcedureStates> procedures = {
      {"CreateTable", {"Prepare", "DatanodeCreateRegions", "CreateMetadata"}},
      {"Repartition",
       {"RepartitionStart", "UpdatePartitionMetadata", "AllocateRegion.Build",
        "AllocateRegion.Execute", "Dispatch", "Collect",
        "DeallocateRegion", "RepartitionEnd"}},
      {"RepartitionGroup",
       {"RepartitionStart", "SyncRegion", "ApplyStaging", "EnterStagingRegion", "RemapManifest",
        "ApplyStagingManifest", "ExitStaging", "RepartitionEnd"}},
  };
  return procedures;
}

std::vector<std::string> BuildStates() {
  std::vector<std::string> states;
  for (const ProcedureStates& p : Procedures()) {
    for (const char* state : p.states) states.push_back(std::string(p.type) + "." + state);
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
      "datanode.write.after_wal",         "datanode.create.after_manifest",
      "datanode.drop.after_manifest",     "datanode.flush.after_sst",
      "datanode.flush.after_manifest",    "datanode.enter_staging.after_clear",
      "datanode.remap.after_blob",        "datanode.apply_staging.after_edit",
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
