// The named crash sites a scenario may refer to (faults.crash_sites, faults.crash_at), so a
// typo is a load error rather than a crash point that silently never fires. Sites are the
// datanode's durable-write boundaries and `<Procedure>.<State>.before_persist|after_persist`
// for every procedure state, built from the procedures' own state-name tables
// (kMetaProcedureStates, model/metasrv/meta_procedure.h); tests/checker/scenario/
// crash_sites_test.cc pins the list.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace repartsim::scenario {

// Every known site, sorted by name.
const std::vector<std::string>& KnownCrashSites();
bool IsKnownCrashSite(std::string_view site);
// Every persisted procedure state as "Type.State" (e.g. "RepartitionGroup.EnterStagingRegion"),
// sorted: what a scripted step may wait for (`after:`) or a held message may wait on.
const std::vector<std::string>& KnownProcedureStates();
bool IsKnownProcedureState(std::string_view state);

}  // namespace repartsim::scenario
