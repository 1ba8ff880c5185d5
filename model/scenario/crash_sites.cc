#include "model/scenario/crash_sites.h"

#include <algorithm>

namespace repartsim::scenario {

namespace {

struct ProcedureStates {
  const char* type;
  std::vector<const char*> states;
};

std::vector<std::string> BuildSites() {
  std::vector<std::string> sites = {
      "datanode.write.after_wal",         "datanode.create.after_manifest",
      "datanode.drop.after_manifest",     "datanode.flush.after_sst",
      "datanode.flush.after_manifest",    "datanode.enter_staging.after_clear",
      "datanode.remap.after_blob",        "datanode.apply_staging.after_edit",
  };
  // GreptimeDB's state names (DESIGN.md section 1, model/repartition/).
  const std::vector<ProcedureStates> procedures = {
      {"CreateTable", {"Prepare", "DatanodeCreateRegions", "CreateMetadata"}},
      {"Repartition",
       {"RepartitionStart", "UpdatePartitionMetadata", "AllocateRegion.Build",
        "AllocateRegion.Execute", "Dispatch", "Collect",
        "DeallocateRegion", "RepartitionEnd"}},
      {"RepartitionGroup",
       {"RepartitionStart", "SyncRegion", "ApplyStaging", "EnterStagingRegion", "RemapManifest",
        "ApplyStagingManifest", "ExitStaging", "RepartitionEnd"}},
  };
  for (const ProcedureStates& p : procedures) {
    for (const char* state : p.states) {
      for (const char* suffix : {"before_persist", "after_persist"}) {
        sites.push_back(std::string(p.type) + "." + state + "." + suffix);
      }
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

bool IsKnownCrashSite(std::string_view site) {
  const auto& sites = KnownCrashSites();
  return std::binary_search(sites.begin(), sites.end(), site,
                            [](std::string_view a, std::string_view b) { return a < b; });
}

}  // namespace repartsim::scenario
