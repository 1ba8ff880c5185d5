// Goal: pin query pruning's candidates and its fall-backs in both modes. Method: a three-
// region rule on an INT column plus a STRING column, predicates parsed from SQL.
#include "model/partition/prune.h"

#include <gtest/gtest.h>

#include "model/sql/parser.h"

namespace repartsim::model {
namespace {

using R = std::vector<uint32_t>;

class PruneTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto parsed = sql::ParseStatements(
        "CREATE TABLE t (a INT, b STRING, c INT, ts TIMESTAMP TIME INDEX) "
        "PARTITION ON COLUMNS (a, b) (a < 10, a >= 10 AND a < 20, a >= 20)",
        "test");
    ASSERT_TRUE(parsed.ok());
    const auto& create = std::get<sql::CreateTable>(parsed.value()[0].body);
    schema_ = create.schema;
    rule_ = create.rule;
  }
  PruneResult Prune(const std::string& where, PruneMode mode = PruneMode::kGreptime) {
    auto p = sql::ParsePredicate(where, "where");
    EXPECT_TRUE(p.ok()) << (p.ok() ? "" : p.error().Format());
    return PruneRegions(rule_, schema_, p.value(), mode);
  }
  TableSchema schema_;
  PartitionRule rule_;
};

TEST_F(PruneTest, ComparisonsSelectOverlappingRegions) {
  EXPECT_EQ(Prune("a > 15").regions, R({1, 2}));
  EXPECT_EQ(Prune("a = 10").regions, R({1}));
  EXPECT_EQ(Prune("5 > a").regions, R({0}));
  EXPECT_EQ(Prune("a < 10 OR a >= 25").regions, R({0, 2}));
}

TEST_F(PruneTest, InBetweenAndNot) {
  EXPECT_EQ(Prune("a IN (1, 25)").regions, R({0, 2}));
  EXPECT_EQ(Prune("a BETWEEN 10 AND 19").regions, R({1}));
  EXPECT_EQ(Prune("a NOT BETWEEN 0 AND 30").regions, R({0, 2}));
  EXPECT_EQ(Prune("NOT a >= 10").regions, R({0}));
  EXPECT_EQ(Prune("a NOT IN (1, 2)").regions, R({0, 1, 2}));  // <> is ignored
}

TEST_F(PruneTest, NonPartitionColumnsAreDroppedFromAndButPoisonOr) {
  EXPECT_EQ(Prune("a > 25 AND c = 1").regions, R({2}));
  PruneResult r = Prune("a > 25 OR c = 1");
  EXPECT_EQ(r.regions, R({0, 1, 2}));
  EXPECT_TRUE(r.fell_back);
  EXPECT_EQ(r.reason, "predicate does not constrain partition columns");
}

TEST_F(PruneTest, IsNullFallsBack) { EXPECT_EQ(Prune("a IS NULL").regions, R({0, 1, 2})); }

TEST_F(PruneTest, GreptimeTreatsConjunctsAsAUnion) {
  EXPECT_EQ(Prune("a < 5 AND a > 25").regions, R({0, 2}));
  EXPECT_EQ(Prune("a < 5 AND a > 25", PruneMode::kExact).regions, R({}));
}

TEST_F(PruneTest, AndOverOrFailsTheColliderOnlyInGreptime) {
  PruneResult g = Prune("(a = 1 OR a = 25) AND (a > 0 OR a < -5) OR a = 12");
  EXPECT_TRUE(g.fell_back);
  EXPECT_EQ(g.reason, "Unexpected: Conjunction operation Or should be handled elsewhere");
  EXPECT_EQ(Prune("(a = 1 OR a = 25) AND (a > 0 OR a < -5) OR a = 12", PruneMode::kExact).regions,
            R({0, 1, 2}));
  EXPECT_EQ(Prune("(a = 1 OR a = 25) AND b = 'x'", PruneMode::kExact).regions, R({0, 2}));
}

TEST_F(PruneTest, UnpartitionedTableFallsBack) {
  PartitionRule none;
  none.regions = {0};
  auto p = sql::ParsePredicate("a = 1", "where");
  PruneResult r = PruneRegions(none, schema_, p.value(), PruneMode::kGreptime);
  EXPECT_EQ(r.regions, R({0}));
  EXPECT_EQ(r.reason, "table has no partition columns");
}

TEST_F(PruneTest, TimestampPartitionColumnIsUnsupported) {
  auto parsed = sql::ParseStatements(
      "CREATE TABLE m (ts TIMESTAMP TIME INDEX) PARTITION ON COLUMNS (ts) (ts < 100, ts >= 100)",
      "test");
  ASSERT_TRUE(parsed.ok());
  const auto& create = std::get<sql::CreateTable>(parsed.value()[0].body);
  auto p = sql::ParsePredicate("ts < 5", "where");
  PruneResult r = PruneRegions(create.rule, create.schema, p.value(), PruneMode::kGreptime);
  EXPECT_EQ(r.regions, R({0, 1}));
  EXPECT_EQ(r.reason, "unsupported partition column type TimestampMillisecond");
}

}  // namespace
}  // namespace repartsim::model
