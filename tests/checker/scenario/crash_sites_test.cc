// Goal: the crash-site and procedure-state lists a scenario may name are exactly the ones the
// procedures' own state-name tables give (plus the datanode's durable-write boundaries), so a
// renamed or added state cannot leave the loader's list behind.
// Method: rebuild the expected lists from kMetaProcedureStates and compare; spot-check names
// the bundled scenarios and the crash matrix use, and a typo.
#include "checker/scenario/crash_sites.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "model/metasrv/meta_procedure.h"

namespace repartsim::scenario {
namespace {
namespace crash_sites_test {

TEST(CrashSitesTest, ProcedureStatesAreTheStateTablesOfEveryProcedureType) {
  std::vector<std::string> expected;
  for (const model::ProcedureStateTable& table : model::kMetaProcedureStates) {
    for (std::string_view state : table.states) {
      expected.push_back(std::string(table.type) + "." + std::string(state));
    }
  }
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(KnownProcedureStates(), expected);
  EXPECT_EQ(expected.size(), 3u + 8u + 8u + 11u);
}

TEST(CrashSitesTest, EveryStateHasABeforeAndAnAfterPersistSite) {
  for (const std::string& state : KnownProcedureStates()) {
    EXPECT_TRUE(IsKnownCrashSite(state + ".before_persist")) << state;
    EXPECT_TRUE(IsKnownCrashSite(state + ".after_persist")) << state;
  }
  // Nine datanode sites and two per procedure state.
  EXPECT_EQ(KnownCrashSites().size(), 9u + 2u * KnownProcedureStates().size());
  EXPECT_TRUE(std::is_sorted(KnownCrashSites().begin(), KnownCrashSites().end()));
}

TEST(CrashSitesTest, NamesUsedByScenariosAreKnownAndATypoIsNot) {
  EXPECT_TRUE(IsKnownCrashSite("Repartition.AllocateRegion.Build.after_persist"));
  EXPECT_TRUE(IsKnownCrashSite("RepartitionGroup.ApplyStagingManifest.before_persist"));
  EXPECT_TRUE(IsKnownCrashSite("datanode.apply_staging.after_edit"));
  EXPECT_TRUE(IsKnownCrashSite("datanode.compact.after_sst"));
  EXPECT_TRUE(IsKnownProcedureState("RepartitionGroup.EnterStagingRegion"));
  EXPECT_TRUE(IsKnownProcedureState("CreateTable.DatanodeCreateRegions"));
  EXPECT_FALSE(IsKnownCrashSite("Repartition.AllocateRegion.after_persist"));
  EXPECT_FALSE(IsKnownCrashSite("RepartitionGroup.ApplyStagingManifest"));
  EXPECT_FALSE(IsKnownProcedureState("Repartition.Allocate"));
}

}  // namespace crash_sites_test
}  // namespace
}  // namespace repartsim::scenario
