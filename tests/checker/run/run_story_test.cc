// Goal: the stories of a run (checker/run/run_story.h): violations one cause explains are one
// story, counted by invariant in report order; a query answered from a stale route names the
// frontend, the query, the route version and the invalidations it ignored; lost rows name the
// event that lost them and the procedure states then; refused writes name the frontend and
// its route version; the faults before a story are listed; a violation no cause explains says
// so. (The stories of the bundled library are pinned by story_library_test.cc.)
// Method: a hand-written trace for the exact texts.
#include "checker/run/run_story.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "checker/run/runner.h"
#include "checker/scenario/loader.h"
#include "tests/paths.h"

namespace repartsim::run {
namespace {
namespace run_story_test {

using check::Invariant;
using check::Violation;

const std::vector<std::string> kTrace = {
    "10 1 n0 ms.state procedure=2 type=Repartition from=Start to=Collect status=Suspended",
    "12 2 n3 fe.route_filled table=1024 version=0",
    "14 3 n2 net.delay id=7 msg=Heartbeat from=dn1 to=metasrv extra_ms=10 deliver_at=20",
    "20 4 n0 ms.invalidate table=1024 epoch=2",
    "21 4 n0 send id=9 msg=InvalidateCache to=fe1",
    "22 4 n3 recv InvalidateCache from=metasrv id=9",
    "22 4 n3 fe.invalidate_ignored table=1024",
    "25 5 n1 dn.region_op ApplyStagingManifest 4398046511104(1024, 0) Ok",
    "26 5 n1 crash dn1",
    "30 6 n3 fe.query_plan id=4 table=1024 version=0 regions=0,1",
    "31 6 n3 fe.query_plan id=5 table=1024 version=0 regions=0,1",
    "40 8 n3 fe.write_done id=12 rejected error=\"Partition expr version mismatch for region "
    "4398046511104(1024, 0): x\"",
};

StoryContext Context() { return StoryContext{{"metasrv", "dn1", "dn2", "fe1"}, 3, 4}; }

Violation Query(Invariant invariant, uint64_t step, int id) {
  Violation v;
  v.invariant = invariant;
  v.step = step;
  v.message = "query missed rows";
  v.context_needles = {"op query id=" + std::to_string(id) + " "};
  return v;
}

TEST(RunStoryTest, AStaleRouteIsOneStoryNamingTheIgnoredInvalidations) {
  const std::vector<Violation> violations = {Query(Invariant::kNoOmit, 32, 4),
                                             Query(Invariant::kNoDup, 33, 5),
                                             Query(Invariant::kNoOmit, 34, 4)};
  const std::vector<Story> stories = BuildStories(violations, kTrace, Context());
  ASSERT_EQ(stories.size(), 1u);
  EXPECT_EQ(stories[0].invariants, "INV-NOOMIT x2, INV-NODUP x1");
  EXPECT_EQ(stories[0].violations, (std::vector<size_t>{0, 1, 2}));
  EXPECT_EQ(stories[0].cause,
            "P6 (docs/findings.md): fe1 planned query 4 at step 30 with stale route version 0 "
            "(2 regions) because it ignored the invalidations at steps 22");
  EXPECT_EQ(stories[0].details,
            (std::vector<std::string>{
                "operation: query 4 from fe1, planned at step 30 with route version 0 (2 "
                "regions: 0,1)",
                "route: fe1 filled route version 0 at step 12; the metasrv invalidated the route "
                "at steps 20; fe1 ignored invalidations at steps 22; final route: version 3, 4 "
                "regions",
                "procedures at step 32: procedure 2 Repartition in Collect (Suspended)",
                "faults before step 32: net.delay x1 (step 14); crash dn1 x1 (step 26)"}));
}

TEST(RunStoryTest, LostRowsNameTheEventAndRefusedWritesTheFrontendsRoute) {
  Violation lost;
  lost.invariant = Invariant::kAck;
  lost.step = 50;
  lost.message = "1 acknowledged row is missing at quiescence";
  lost.notes = {
      "row (a=1): last accepted by region 4398046511104(1024, 0) on dn1 at step 11; "
      "the first event after that which dropped, replaced or lost that region's data: "
      "`25 5 n1 dn.region_op ApplyStagingManifest 4398046511104(1024, 0) Ok`"};
  Violation refused;
  refused.invariant = Invariant::kLive;
  refused.step = 50;
  refused.message =
      "row is not writable: Partition expr version mismatch for region 4398046511104(1024, 0): "
      "request 1, expected 2";
  const std::vector<Story> stories = BuildStories({lost, refused}, kTrace, Context());
  ASSERT_EQ(stories.size(), 2u);
  EXPECT_EQ(stories[0].cause,
            "rows were lost when dn1 ran ApplyStagingManifest on region 4398046511104(1024, 0) "
            "at step 25");
  EXPECT_EQ(stories[0].details[0],
            "lost at: `25 5 n1 dn.region_op ApplyStagingManifest 4398046511104(1024, 0) Ok`");
  EXPECT_EQ(stories[0].details[1],
            "procedures at step 25: procedure 2 Repartition in Collect (Suspended)");
  EXPECT_EQ(stories[1].invariants, "INV-LIVE x1");
  EXPECT_EQ(stories[1].cause,
            "fe1 kept writing with route version 0 and its writes were refused until the end "
            "(last at step 40)");
}

TEST(RunStoryTest, ARowAcceptedOutsideItsRegionNamesTheWritersStaleRoute) {
  std::vector<std::string> trace = kTrace;
  trace.push_back("41 9 n3 send id=20 msg=WriteRequest to=dn1");
  trace.push_back("42 9 n1 recv WriteRequest from=fe1 id=20");
  trace.push_back("42 9 n1 dn.accepted_outside 4398046511104(1024, 0) rows=1");
  Violation own;
  own.invariant = Invariant::kOwn;
  own.step = 42;
  own.message = "region 4398046511104(1024, 0) accepted 1 row outside its expression a < 5";
  own.regions = {"4398046511104(1024, 0)"};
  Violation exposed = own;  // at quiescence: no acceptance at its step, told by its message
  exposed.step = 50;
  exposed.message = "region 4398046511104(1024, 0) exposes 1 row outside its expression a < 5";
  const std::vector<Story> stories = BuildStories({own, exposed}, trace, Context());
  ASSERT_EQ(stories.size(), 2u);
  EXPECT_EQ(stories[0].cause,
            "fe1 wrote to region 4398046511104(1024, 0) at step 41 with stale route version 0 "
            "because it ignored the invalidations at steps 22");
  EXPECT_EQ(stories[0].details.at(0),
            "operation: a write fe1 sent at step 41, accepted by dn1 into region "
            "4398046511104(1024, 0) at step 42");
  EXPECT_EQ(stories[1].cause, "at step 50, " + exposed.message +
                                  "; the report derives no cause for it (no loss event, stale "
                                  "route or known class)");
}

TEST(RunStoryTest, AViolationWithoutAKnownCauseSaysSoAndIsItsOwnStoryByMessage) {
  Violation a;
  a.invariant = Invariant::kMeta;
  a.step = 5;
  a.message = "region 1 is open on node 3";
  Violation b = a;
  b.message = "region 2 is open on node 3";  // the same story: only numbers differ
  const std::vector<Story> stories = BuildStories({a, b}, {}, Context());
  ASSERT_EQ(stories.size(), 1u);
  EXPECT_EQ(stories[0].cause, "at step 5, " + a.message +
                                  "; the report derives no cause for it (no loss event, stale "
                                  "route or known class)");
  EXPECT_EQ(stories[0].details, (std::vector<std::string>{"procedures at step 5: none running",
                                                          "faults before step 5: none"}));
}

// L1 is told from its events: a HeartbeatReply sent before the group's ApplyStaging and
// received after the region entered staging on that datanode; a datanode that logs
// dn.stale_lease_ignored for it (versioned-leases) shows no L1.
TEST(RunStoryTest, AHeldLeaseIsL1UnlessTheDatanodeIgnoredIt) {
  std::vector<std::string> trace = {
      "10 1 n0 send id=5 msg=HeartbeatReply to=dn1",
      "11 1 n0 ms.state procedure=3 type=RepartitionGroup from=RepartitionStart to=ApplyStaging "
      "status=Running",
      "12 2 n1 dn.region_op EnterStaging 4398046511107(1024, 3) Ok",
      "13 3 n1 recv HeartbeatReply from=metasrv id=5",
  };
  Violation lost;
  lost.invariant = Invariant::kAck;
  lost.step = 20;
  lost.message = "1 acknowledged row is missing at quiescence";
  std::vector<Story> stories = BuildStories({lost}, trace, Context());
  ASSERT_EQ(stories.size(), 1u);
  EXPECT_EQ(stories[0].cause,
            "L1 (docs/findings.md): the metasrv computed dn1's lease at step 10 (HeartbeatReply "
            "5), before procedure 3's ApplyStaging (step 11), and dn1 received it at step 13, "
            "after region 4398046511107(1024, 3) entered staging (step 12): the role that lease "
            "carries ended the region's staging before the group's ApplyStagingManifest");
  trace.push_back("13 3 n1 dn.stale_lease_ignored 4398046511107(1024, 3) route_version=0");
  stories = BuildStories({lost}, trace, Context());
  ASSERT_EQ(stories.size(), 1u);
  EXPECT_EQ(stories[0].cause.find("L1 "), std::string::npos) << stories[0].cause;
}

}  // namespace run_story_test
}  // namespace
}  // namespace repartsim::run
