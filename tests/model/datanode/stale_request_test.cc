// Goal: the two datanode-side fences against requests from an older route, found by the random
// merge library with the merge late in the run (docs/rules.md, drop-tombstones and
// route-fenced-reads): a CreateRegion overtaken by its own retry and by a whole merge must not
// re-create the dropped region, and a scan planned before the merge must not read a region
// that has already seen the merge's route. Method: drive one datanode directly, with each rule
// on and off, and compare the exact replies.
#include <gtest/gtest.h>

#include "tests/model/datanode/datanode_fixture.h"
#include "tests/model/set_rule.h"

namespace repartsim::model {
namespace {
namespace stale_request_test {

using namespace testing;  // NOLINT

class StaleRequestTest : public ::testing::Test {
 protected:
  static Protocol With(std::string_view rule) {
    Protocol p = Protocol::Greptime();
    testing::SetRule(p, rule);
    return p;
  }

  ObjectStore store_;
  Datanode dn_{NodeId{1}};
  NoCrashHook no_crash_;
};

TEST_F(StaleRequestTest, TombstoneRefusesACreateFromAnOlderRoute) {
  const Protocol p = With("drop-tombstones");
  ASSERT_TRUE(
      dn_.HandleCreateRegion(kR1, TestSchema(), Lt(10), store_, no_crash_, false, p, 0).ok());
  ASSERT_TRUE(dn_.HandleDropRegion(kR1, store_, no_crash_, p, 3).ok());
  EXPECT_EQ(store_.Tombstone(kR1), std::optional<uint64_t>(3));
  // The CREATE TABLE request (no route yet: version 0) arrives late.
  Reply stale = dn_.HandleCreateRegion(kR1, TestSchema(), Lt(10), store_, no_crash_, false, p, 0);
  EXPECT_EQ(stale.code, ReplyCode::kUnexpected);
  EXPECT_EQ(stale.message,
            "Region 4398046511105(1024, 1) was dropped under route version 3; CreateRegion sent "
            "under 0 is stale");
  EXPECT_EQ(dn_.FindRegion(kR1), nullptr);
  EXPECT_EQ(store_.Manifest(kR1), nullptr);
  // A later repartition may reuse the number under a newer route.
  EXPECT_TRUE(
      dn_.HandleCreateRegion(kR1, TestSchema(), Lt(10), store_, no_crash_, false, p, 3).ok());
  EXPECT_NE(dn_.FindRegion(kR1), nullptr);
}

TEST_F(StaleRequestTest, TombstoneIsLeftEvenWhenTheRegionIsNotHere) {
  const Protocol p = With("drop-tombstones");
  // The drop overtakes the create it should follow.
  ASSERT_TRUE(dn_.HandleDropRegion(kR1, store_, no_crash_, p, 2).ok());
  EXPECT_EQ(dn_.HandleCreateRegion(kR1, TestSchema(), Lt(10), store_, no_crash_, false, p, 1).code,
            ReplyCode::kUnexpected);
  EXPECT_EQ(dn_.FindRegion(kR1), nullptr);
}

TEST_F(StaleRequestTest, WithoutTombstonesTheStaleCreateRevivesTheRegion) {
  const Protocol p = Protocol::Greptime();
  ASSERT_TRUE(
      dn_.HandleCreateRegion(kR1, TestSchema(), Lt(10), store_, no_crash_, false, p, 0).ok());
  ASSERT_TRUE(dn_.HandleDropRegion(kR1, store_, no_crash_, p, 3).ok());
  EXPECT_EQ(store_.Tombstone(kR1), std::nullopt);
  EXPECT_TRUE(
      dn_.HandleCreateRegion(kR1, TestSchema(), Lt(10), store_, no_crash_, false, p, 0).ok());
  EXPECT_NE(dn_.FindRegion(kR1), nullptr);
}

TEST_F(StaleRequestTest, RouteFencedReadsRefuseAPlanFromAnOlderRoute) {
  const Protocol p = With("route-fenced-reads");
  ASSERT_TRUE(dn_.HandleCreateRegion(kR1, TestSchema(), Lt(10), store_, no_crash_).ok());
  dn_.NoteRouteVersion(kR1, 2);  // e.g. the merge's EnterStaging, stamped with route version 2
  ScanReply stale = dn_.HandleScan(kR1, std::nullopt, p, store_, 1);
  EXPECT_EQ(stale.code, ReplyCode::kPartitionExprVersionMismatch);
  EXPECT_EQ(stale.message,
            "Route version mismatch for region 4398046511105(1024, 1): request planned under "
            "route version 1, region has seen 2");
  EXPECT_TRUE(dn_.HandleScan(kR1, std::nullopt, p, store_, 2).ok());
  EXPECT_TRUE(dn_.HandleScan(kR1, std::nullopt, p, store_, 5).ok());
  // The checker's own scan is planned by no route.
  EXPECT_TRUE(dn_.HandleScan(kR1, std::nullopt, p, store_).ok());
  // Off (greptime): the old plan is served.
  EXPECT_TRUE(dn_.HandleScan(kR1, std::nullopt, Protocol::Greptime(), store_, 1).ok());
}

}  // namespace stale_request_test
}  // namespace
}  // namespace repartsim::model
