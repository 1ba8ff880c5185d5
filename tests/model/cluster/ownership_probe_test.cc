// Goal: INV-OWN at acceptance as the cluster's ownership probe records it: rows of an accepted
// region write outside the region's committed expression (and, while staging, outside its
// staging expression too) become one OwnershipBreach with exactly those rows, logged as
// `dn.accepted_outside`; a write inside the expression, or to an unpartitioned region, records
// nothing. Method: a datanode answers hand-made write requests with the probe as observer.
#include "model/cluster/ownership_probe.h"

#include <gtest/gtest.h>

#include "tests/model/datanode/datanode_fixture.h"
#include "tests/model/node/node_context_fixture.h"

namespace repartsim::model {
namespace {
namespace ownership_probe_test {

using namespace testing;  // NOLINT

constexpr NodeId kDn{1};

class OwnershipProbeTest : public ::testing::Test {
 protected:
  void Create(RegionId region, std::optional<PartitionExpr> expr) {
    NoCrashHook no_crash;
    ASSERT_TRUE(
        dn_.HandleCreateRegion(region, TestSchema(), std::move(expr), store_, no_crash).ok());
  }
  // Writes `rows` to `region` unversioned through OnMessage with the probe watching.
  void Write(RegionId region, std::vector<Row> rows) {
    OwnershipProbe probe(f_.history());
    WriteRequest request{1, {RegionWrite{region, std::move(rows), std::nullopt}}};
    dn_.OnMessage(NodeId{4}, Message{request}, store_, f_.ctx(), &probe);
  }

  Datanode dn_{kDn};
  ObjectStore store_;
  NodeContextFixture f_{kDn};
};

TEST_F(OwnershipProbeTest, RowsOutsideTheExpressionAreOneBreach) {
  Create(kR0, Lt(10));
  Write(kR0, {R(1, 1, 1), R(15, 2, 2), R(9, 3, 3), R(10, 4, 4)});
  const auto& breaches = f_.history().ownership_breaches;
  ASSERT_EQ(breaches.size(), 1u);
  EXPECT_EQ(breaches[0].node, kDn);
  EXPECT_EQ(breaches[0].region, kR0);
  EXPECT_EQ(breaches[0].step, 1u);
  EXPECT_EQ(breaches[0].at.ms, 1000);
  EXPECT_EQ(breaches[0].current, Lt(10));
  EXPECT_FALSE(breaches[0].staging.has_value());
  EXPECT_EQ(breaches[0].rows, (std::vector<Row>{R(15, 2, 2), R(10, 4, 4)}));
  EXPECT_EQ(f_.TraceCount("dn.accepted_outside 4398046511104(1024, 0) rows=2"), 1u);
}

TEST_F(OwnershipProbeTest, RowsInsideTheExpressionOrUnpartitionedRecordNothing) {
  Create(kR0, Lt(10));
  Create(kR1, std::nullopt);
  Write(kR0, {R(1, 1, 1), R(9, 2, 2)});
  Write(kR1, {R(100, 3, 3)});
  EXPECT_TRUE(f_.history().ownership_breaches.empty());
  EXPECT_EQ(f_.TraceCount("dn.accepted_outside"), 0u);
}

TEST_F(OwnershipProbeTest, WhileStagingTheStagingExpressionAlsoOwns) {
  Create(kR0, Lt(10));
  NoCrashHook no_crash;
  ASSERT_TRUE(dn_.HandleEnterStaging(kR0, StagingInfo::UpdatePartitionExpr(Lt(20)),
                                     Protocol::Greptime(), store_, no_crash)
                  .ok());
  Write(kR0, {R(5, 1, 1), R(15, 2, 2), R(25, 3, 3)});
  const auto& breaches = f_.history().ownership_breaches;
  ASSERT_EQ(breaches.size(), 1u);
  EXPECT_EQ(breaches[0].current, Lt(10));
  EXPECT_EQ(breaches[0].staging, Lt(20));
  EXPECT_EQ(breaches[0].rows, std::vector<Row>{R(25, 3, 3)});
}

TEST_F(OwnershipProbeTest, RefusedWritesAreNotProbed) {
  Create(kR0, Lt(10));
  dn_.ApplyLease(kR0, RegionRole::kFollower, sim::AtMs(10000), Protocol::Greptime());
  Write(kR0, {R(50, 1, 1)});  // RegionNotReady: nothing accepted
  EXPECT_TRUE(f_.history().ownership_breaches.empty());
}

}  // namespace ownership_probe_test
}  // namespace
}  // namespace repartsim::model
