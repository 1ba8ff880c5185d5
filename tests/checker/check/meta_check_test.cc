// Goal: INV-META reports every disagreement between route, partition metadata and datanodes
// at quiescence with its exact message, and nothing for a consistent state.
// Method: start from a consistent two-region state and break one fact per test.
#include "checker/check/meta_check.h"

#include <gtest/gtest.h>

namespace repartsim::check {
namespace {
namespace meta_check_test {

using model::NodeId;
using model::RegionId;

const RegionId kR0 = RegionId::Of(model::TableId{1024}, model::RegionNumber{0});
const RegionId kR1 = RegionId::Of(model::TableId{1024}, model::RegionNumber{1});
const RegionId kR2 = RegionId::Of(model::TableId{1024}, model::RegionNumber{2});

MetaState Consistent() {
  MetaState s;
  s.routes = {{kR0, NodeId{1}, 0xa, false}, {kR1, NodeId{2}, 0xb, false}};
  s.partitions = {{kR0, 0xa}, {kR1, 0xb}};
  s.open_regions = {{NodeId{1}, kR0, true, 0xa, false},
                    {NodeId{2}, kR1, true, 0xb, false},
                    {NodeId{1}, kR1, false, 0xb, false}};
  s.allocations = {kR0, kR1};
  return s;
}

std::vector<std::string> Messages(const std::vector<Violation>& violations) {
  std::vector<std::string> out;
  for (const Violation& v : violations) out.push_back(v.message);
  return out;
}

const CheckAt kAt{100, 5000};

TEST(MetaCheckTest, ConsistentStatePasses) { EXPECT_TRUE(CheckMeta(Consistent(), kAt).empty()); }

TEST(MetaCheckTest, RegionNotOpenOnLeaderIsExactViolation) {
  MetaState s = Consistent();
  s.open_regions.erase(s.open_regions.begin());
  std::vector<Violation> got = CheckMeta(s, kAt);
  ASSERT_EQ(got.size(), 1u);
  Violation expected{Invariant::kMeta,
                     100,
                     5000,
                     {},
                     {"4398046511104(1024, 0)"},
                     "region 4398046511104(1024, 0) is routed to node 1 but not open there",
                     {}};
  EXPECT_EQ(got[0], expected);
}

TEST(MetaCheckTest, VersionMismatchesAreReported) {
  MetaState s = Consistent();
  s.partitions[1].expr_version = 0xc;
  s.open_regions[0].expr_version = 0xd;
  EXPECT_EQ(Messages(CheckMeta(s, kAt)),
            (std::vector<std::string>{
                "region 4398046511104(1024, 0) is open on node 1 with expression version "
                "13 but routed with expression version 10",
                "region 4398046511105(1024, 1) has expression version 11 in "
                "its route but expression version 12 in the partition metadata"}));
  // Issue 53: a version whose expression the state knows prints as the expression.
  s.expressions = {{0xd, "a < 5"}, {10, "a < 10"}};
  EXPECT_EQ(Messages(CheckMeta(s, kAt))[0],
            "region 4398046511104(1024, 0) is open on node 1 with expression `a < 5` but routed "
            "with expression `a < 10`");
}

TEST(MetaCheckTest, StagingFollowerLeaderlessAndOrphanedRegionsAreReported) {
  MetaState s = Consistent();
  s.routes[0].staging = true;
  s.routes[1].leader = NodeId{1};  // node 1 only hosts a follower of region 1
  s.open_regions[1].staging = true;
  s.open_regions.push_back({NodeId{3}, kR2, true, 0xe, false});
  s.routes.push_back(
      {RegionId::Of(model::TableId{1024}, model::RegionNumber{3}), std::nullopt, 0xf, false});
  s.partitions.push_back({RegionId::Of(model::TableId{1024}, model::RegionNumber{3}), 0xf});
  EXPECT_EQ(Messages(CheckMeta(s, kAt)),
            (std::vector<std::string>{
                "region 4398046511104(1024, 0) is still staging in its route",
                "region 4398046511105(1024, 1) is open on its route leader node 1 as a "
                "follower",
                "region 4398046511107(1024, 3) is routed without a leader",
                "region 4398046511105(1024, 1) is still staging on node 2",
                "region 4398046511106(1024, 2) is open on node 3 but not routed (orphaned)"}));
}

TEST(MetaCheckTest, RouteAndPartitionSetsMustMatch) {
  MetaState s = Consistent();
  s.partitions = {{kR0, 0xa}, {kR2, 0xb}};
  EXPECT_EQ(Messages(CheckMeta(s, kAt)),
            (std::vector<std::string>{
                "region 4398046511105(1024, 1) is routed but has no partition metadata",
                "region 4398046511106(1024, 2) has partition metadata but is not routed"}));
}

TEST(MetaCheckTest, ReusedRegionNumberIsReported) {
  MetaState s = Consistent();
  s.allocations = {kR0, kR1, kR1};
  EXPECT_EQ(Messages(CheckMeta(s, kAt)),
            (std::vector<std::string>{"region 4398046511105(1024, 1) was allocated 2 times "
                                      "(region numbers must never be reused)"}));
}

}  // namespace meta_check_test
}  // namespace
}  // namespace repartsim::check
