// Goal: docs/protocol.md section 10.7 for the merge and unpartitioned timelines: a metasrv crash
// after the states only they exercise (UpdatePartitionMetadata, a DeallocateRegion that drops a
// region) and after the P2 points, where `greptime` diverges differently (merge: the merged-away
// rows read twice; unpartitioned: the moved rows are invisible). `reference` ends clean every time.
// Method: the table-driven runs of crash_matrix.h (see crash_recovery_test.cc).
#include "tests/model/repartition/crash_matrix.h"

namespace repartsim::model::testing {
namespace {
namespace crash_recovery_merge_test {

using namespace crash_matrix;  // NOLINT: the matrix vocabulary

// ---- merge: DeallocateRegion has work; P2 duplicates -----------------------------------------

const std::vector<CrashCase>& MergeCases() {
  static const std::vector<CrashCase> cases = {
      {"AllocateRegion.Build",
       "Repartition.Dispatch.after_persist",
       "Dispatch",
       {},
       {},
       Done(),
       Done()},
      {"group EnterStagingRegion",
       "RepartitionGroup.RemapManifest.after_persist",
       "Dispatch",
       {},
       {},
       RolledBack(),
       Done()},
      {"group ApplyStagingManifest",
       "RepartitionGroup.ExitStaging.after_persist",
       "Dispatch",
       {},
       {},
       Diverged(Rows::kMergedDuplicated),
       Done()},
      {"Collect",
       "Repartition.DeallocateRegion.after_persist",
       "DeallocateRegion",
       {},
       {},
       Done(),
       Done()},
      // During DeallocateRegion, after the drop: recovered at DeallocateRegion, dropped again.
      {"DeallocateRegion (drop sent)",
       "Repartition.RepartitionEnd.before_persist",
       "DeallocateRegion",
       {},
       {},
       Done(),
       Done()},
      {"DeallocateRegion",
       "Repartition.RepartitionEnd.after_persist",
       "RepartitionEnd",
       {},
       {},
       Done(),
       Done()},
  };
  return cases;
}

TEST(CrashRecoveryTest, MergeGreptimeMatchesTheReferenceCrashMatrix) {
  for (const CrashCase& c : MergeCases()) Check(kMerge, Protocol::Greptime(), c, c.greptime);
}

TEST(CrashRecoveryTest, MergeReferenceEndsCleanAfterEveryCrash) {
  for (const CrashCase& c : MergeCases()) Check(kMerge, Protocol::Reference(), c, c.reference);
}

// ---- unpartitioned: UpdatePartitionMetadata --------------------------------------------------

const std::vector<CrashCase>& UnpartitionedCases() {
  static const std::vector<CrashCase> cases = {
      {"RepartitionStart",
       "Repartition.UpdatePartitionMetadata.before_persist",
       "<none>",
       {},
       {},
       Lost(Route::kOriginal),
       Lost(Route::kOriginal)},
      {"RepartitionStart",
       "Repartition.UpdatePartitionMetadata.after_persist",
       "UpdatePartitionMetadata",
       {},
       {},
       Done(),
       Done()},
      {"UpdatePartitionMetadata",
       "Repartition.AllocateRegion.Build.after_persist",
       "AllocateRegion.Build",
       {},
       {},
       Done(),
       Done()},
      {"group ApplyStagingManifest",
       "RepartitionGroup.ExitStaging.after_persist",
       "Dispatch",
       {},
       {},
       Diverged(Rows::kMovedInvisible),
       Done()},
  };
  return cases;
}

TEST(CrashRecoveryTest, UnpartitionedGreptimeMatchesTheReferenceCrashMatrix) {
  for (const CrashCase& c : UnpartitionedCases()) {
    Check(kUnpartitioned, Protocol::Greptime(), c, c.greptime);
  }
}

TEST(CrashRecoveryTest, UnpartitionedReferenceEndsCleanAfterEveryCrash) {
  for (const CrashCase& c : UnpartitionedCases()) {
    Check(kUnpartitioned, Protocol::Reference(), c, c.reference);
  }
}

}  // namespace crash_recovery_merge_test
}  // namespace
}  // namespace repartsim::model::testing
