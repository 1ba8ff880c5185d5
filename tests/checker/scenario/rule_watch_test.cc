// Goal: INV-RULE is checked during the run, once per newly published rule, stamped with the
// step at which it was published (route changed, metasrv up, no procedure active), and
// never repeated for a rule already checked.
// Method: a Cluster whose metasrv kv gets hand-written routes (a gap rule, a correct rule,
// an overlapping rule) between AfterStep calls; a metasrv crash defers the check until the
// metasrv is back.
#include <gtest/gtest.h>

#include "checker/run/run_check.h"
#include "checker/scenario/loader.h"
#include "model/meta/meta_codec.h"
#include "model/meta/meta_keys.h"

namespace repartsim::scenario {
namespace {
namespace rule_watch_test {

using model::CompareOp;
using model::PartitionExpr;
using model::Value;

constexpr char kScenario[] = R"yaml(name: watch
table: |
  CREATE TABLE t (h STRING, ts TIMESTAMP TIME INDEX, a INT, PRIMARY KEY (h))
  PARTITION ON COLUMNS (a) (a < 10, a >= 10)
expect: {reference: pass, greptime: pass}
)yaml";

PartitionExpr A(CompareOp op, int64_t v) { return PartitionExpr::Leaf("a", op, Value::Int(v)); }

class PublishedRuleWatchTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto s = ParseScenario(kScenario, "watch.yaml");
    ASSERT_TRUE(s.ok()) << s.error().Format();
    scenario_ = s.value();
    auto protocol = model::Protocol::FromProfileName("reference");
    ASSERT_TRUE(protocol.ok());
    cluster_.emplace(model::ClusterConfig{}, protocol.value());
  }

  void Publish(PartitionExpr low, PartitionExpr high) {
    const model::TableId table = scenario_.table_id();
    std::vector<model::RegionRoute> routes(2);
    routes[0].region_id = model::RegionId::Of(table, model::RegionNumber{0});
    routes[0].partition_expr = std::move(low);
    routes[1].region_id = model::RegionId::Of(table, model::RegionNumber{1});
    routes[1].partition_expr = std::move(high);
    cluster_->mutable_metasrv().mutable_kv().Put(
        model::TableRouteKey(table), model::EncodeTableRoute(model::TableRoute::New(routes)));
  }

  Scenario scenario_;
  std::optional<model::Cluster> cluster_;
};

constexpr char kGapMessage[] =
    "published rule of table t is not complete and disjoint: Checkpoint `a=10` is not covered";

TEST_F(PublishedRuleWatchTest, GapRuleIsReportedOnceAtThePublishingStep) {
  run::PublishedRuleWatch watch(scenario_);
  watch.AfterStep(*cluster_, {3, 300});  // no route yet
  EXPECT_TRUE(watch.violations().empty());
  Publish(A(CompareOp::kLt, 10), A(CompareOp::kGt, 10));
  watch.AfterStep(*cluster_, {7, 700});
  watch.AfterStep(*cluster_, {8, 800});
  ASSERT_EQ(watch.violations().size(), 1u);
  const check::Violation& v = watch.violations()[0];
  EXPECT_EQ(v.invariant, check::Invariant::kRule);
  EXPECT_EQ(v.step, 7u);
  EXPECT_EQ(v.time_ms, 700);
  EXPECT_EQ(v.message, kGapMessage);
  EXPECT_EQ(v.regions,
            (std::vector<std::string>{"4398046511104(1024, 0)", "4398046511105(1024, 1)"}));
  // A correct rule passes; the gap rule published again is not repeated.
  Publish(A(CompareOp::kLt, 10), A(CompareOp::kGtEq, 10));
  watch.AfterStep(*cluster_, {9, 900});
  Publish(A(CompareOp::kLt, 10), A(CompareOp::kGt, 10));
  watch.AfterStep(*cluster_, {11, 1100});
  EXPECT_EQ(watch.violations().size(), 1u);
  // A different broken rule (overlap) is its own violation.
  Publish(A(CompareOp::kLt, 10), A(CompareOp::kGtEq, 5));
  watch.AfterStep(*cluster_, {12, 1200});
  ASSERT_EQ(watch.violations().size(), 2u);
  EXPECT_EQ(watch.violations()[1].step, 12u);
  EXPECT_EQ(
      watch.violations()[1].message,
      "published rule of table t is not complete and disjoint: Checkpoint `a=5` is overlapped");
}

TEST_F(PublishedRuleWatchTest, RuleWrittenWhileMetasrvIsDownIsCheckedWhenItIsBack) {
  run::PublishedRuleWatch watch(scenario_);
  cluster_->mutable_metasrv().Crash();
  Publish(A(CompareOp::kLt, 10), A(CompareOp::kGt, 10));
  watch.AfterStep(*cluster_, {4, 400});
  EXPECT_TRUE(watch.violations().empty());
  ASSERT_TRUE(cluster_->mutable_metasrv().Restart(sim::AtMs(500)).ok());
  watch.AfterStep(*cluster_, {5, 500});
  ASSERT_EQ(watch.violations().size(), 1u);
  EXPECT_EQ(watch.violations()[0].step, 5u);
  EXPECT_EQ(watch.violations()[0].message, kGapMessage);
}

TEST_F(PublishedRuleWatchTest, CorrectRulePasses) {
  run::PublishedRuleWatch watch(scenario_);
  Publish(A(CompareOp::kLt, 10), A(CompareOp::kGtEq, 10));
  watch.AfterStep(*cluster_, {2, 200});
  EXPECT_TRUE(watch.violations().empty());
}

}  // namespace rule_watch_test
}  // namespace
}  // namespace repartsim::scenario
