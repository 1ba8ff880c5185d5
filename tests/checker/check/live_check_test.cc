// Goal: INV-LIVE names everything still pending after the liveness budget (procedures with
// their state and what they wait for, staging regions, unwritable rows), and passes when
// every procedure ended (Done, or Failed with its rollback complete).
// Method: build LivenessState values by hand and compare whole Violations.
#include "checker/check/live_check.h"

#include <gtest/gtest.h>

#include "tests/checker/check/test_schema.h"

namespace repartsim::check {
namespace {
namespace live_check_test {

using testing_schema::R;
using testing_schema::Schema;

const model::RegionId kR1 = model::RegionId::Of(model::TableId{1024}, model::RegionNumber{1});
const CheckAt kAt{700, 60000};

TEST(LiveCheckTest, EndedProceduresAndWritableRowsPass) {
  LivenessState s;
  s.heal_step = 200;
  s.procedures = {{"7", "repartition", ProcedureOutcome::kDone, false, "RepartitionEnd", ""},
                  {"8", "repartition", ProcedureOutcome::kFailed, true, "RepartitionEnd", ""}};
  s.probes = {{R("a", 1, 1), kR1, true, ""}};
  EXPECT_TRUE(CheckLiveness(Schema(), s, kAt).empty());
}

TEST(LiveCheckTest, PendingProcedureIsReportedWithStateAndWait) {
  LivenessState s;
  s.heal_step = 200;
  s.procedures = {{"7", "repartition-group", ProcedureOutcome::kRunning, false,
                   "EnterStagingRegion", "region 4398046511105(1024, 1) to enter staging"}};
  std::vector<Violation> got = CheckLiveness(Schema(), s, kAt);
  ASSERT_EQ(got.size(), 1u);
  Violation expected{Invariant::kLive,
                     700,
                     60000,
                     {},
                     {},
                     "procedure 7 (repartition-group) did not end within 500 steps after "
                     "faults healed at step 200: state EnterStagingRegion, waiting for region "
                     "4398046511105(1024, 1) to enter staging",
                     {}};
  EXPECT_EQ(got[0], expected);
}

TEST(LiveCheckTest, IncompleteRollbackStagingRegionAndUnwritableRowAreReported) {
  LivenessState s;
  s.heal_step = 200;
  s.procedures = {{"9", "repartition", ProcedureOutcome::kFailed, false, "DeallocateRegion", ""}};
  s.staging_regions = {kR1};
  s.probes = {{R("x", 5, 0), kR1, false, "RetryLater"}};
  std::vector<Violation> got = CheckLiveness(Schema(), s, kAt);
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0].message,
            "procedure 9 (repartition) failed but its rollback did not complete within 500 "
            "steps after faults healed at step 200: state DeallocateRegion");
  EXPECT_EQ(got[1].message,
            "region 4398046511105(1024, 1) is still staging 500 steps after faults healed at "
            "step 200");
  EXPECT_EQ(got[1].regions, (std::vector<std::string>{"4398046511105(1024, 1)"}));
  Violation unwritable{Invariant::kLive,
                       700,
                       60000,
                       {"(host='x', ts=5, v=0)"},
                       {"4398046511105(1024, 1)"},
                       "row of region 4398046511105(1024, 1) is not writable 500 steps after "
                       "faults healed at step 200: its last write attempt was rejected: RetryLater",
                       {}};
  EXPECT_EQ(got[2], unwritable);
}

}  // namespace live_check_test
}  // namespace
}  // namespace repartsim::check
