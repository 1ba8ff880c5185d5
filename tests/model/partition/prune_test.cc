// Goal: pin query pruning's candidates and its fall-backs in both modes. Method: a three-
// region rule on an INT column plus a STRING column, predicates parsed from SQL.
#include "model/partition/prune.h"

#include <gtest/gtest.h>

#include "model/sql/parser.h"

namespace repartsim::model {
namespace {
namespace prune_test {

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

TEST_F(PruneTest, GreptimeKeepsAnAndOverPartitionColumnsAsOneExpression) {
  // One expression, one atom: the contradiction selects no region in both modes.
  EXPECT_EQ(Prune("a < 5 AND a > 25").regions, R({}));
  EXPECT_EQ(Prune("a < 5 AND a > 25", PruneMode::kExact).regions, R({}));
  EXPECT_FALSE(Prune("a < 5 AND a > 25").fell_back);
}

TEST_F(PruneTest, GreptimeSplitsAMixedAndIntoAUnionOfItsPartitionConjuncts) {
  // c is not a partition column: the AND mixes it, so `a < 5` and `a > 25` become two
  // expressions of their own and the union selects both ends; exact keeps the conjunction.
  EXPECT_EQ(Prune("a < 5 AND c = 1 AND a > 25").regions, R({0, 2}));
  EXPECT_EQ(Prune("a < 5 AND c = 1 AND a > 25", PruneMode::kExact).regions, R({}));
  // A partition-only OR under a mixed AND is kept whole.
  EXPECT_EQ(Prune("(a = 1 OR a = 25) AND c = 1").regions, R({0, 2}));
  EXPECT_EQ(Prune("a IN (1, 25) AND c = 1").regions, R({0, 2}));
}

TEST_F(PruneTest, GreptimeDropsAWholeOrThatMixesANonPartitionColumn) {
  // GreptimeDB drops the OR (all regions); exact drops only the mixed conjunct `c = 5` of
  // the first branch and prunes to the regions of a = 1 and a = 25.
  PruneResult g = Prune("(a = 1 AND c = 5) OR a = 25");
  EXPECT_EQ(g.regions, R({0, 1, 2}));
  EXPECT_TRUE(g.fell_back);
  EXPECT_EQ(g.reason, "predicate does not constrain partition columns");
  EXPECT_EQ(Prune("(a = 1 AND c = 5) OR a = 25", PruneMode::kExact).regions, R({0, 2}));
}

TEST_F(PruneTest, GreptimeDoesNotPruneWhenAnyPartOfTheFilterCannotBeConverted) {
  // a = c compares two columns (kOther): the converter fails the whole filter.
  PruneResult g = Prune("a = 1 AND a = c");
  EXPECT_EQ(g.regions, R({0, 1, 2}));
  EXPECT_EQ(g.reason, "an expression the partition converter does not support");
  EXPECT_EQ(Prune("a = 1 AND a = c", PruneMode::kExact).regions, R({0}));
}

TEST_F(PruneTest, GreptimePushesNotDownAsTheSimplifierDoes) {
  EXPECT_EQ(Prune("NOT (a < 10 OR a >= 20)").regions, R({1}));
  EXPECT_EQ(Prune("NOT (a NOT IN (1, 25))").regions, R({0, 2}));
  EXPECT_EQ(Prune("NOT (a NOT BETWEEN 10 AND 19)").regions, R({1}));
  // Exact does not negate an OR: unknown, so every region.
  EXPECT_EQ(Prune("NOT (a < 10 OR a >= 20)", PruneMode::kExact).regions, R({0, 1, 2}));
}

TEST_F(PruneTest, GreptimeNullLiteralsOnANumericColumnLeaveTheTableUnpruned) {
  PruneResult g = Prune("a IN (1, NULL)");
  EXPECT_EQ(g.regions, R({0, 1, 2}));
  EXPECT_EQ(g.reason, "value NULL cannot be converted to a number");
  EXPECT_EQ(Prune("a = 1 AND a = NULL").reason, "a comparison with NULL is always NULL");
}

TEST_F(PruneTest, AndOverOrFailsTheColliderOnlyInGreptime) {
  PruneResult g = Prune("(a = 1 OR a = 25) AND (a > 0 OR a < -5) OR a = 12");
  EXPECT_TRUE(g.fell_back);
  EXPECT_EQ(g.reason, "Unexpected: Conjunction operation Or should be handled elsewhere");
  EXPECT_EQ(Prune("(a = 1 OR a = 25) AND (a > 0 OR a < -5) OR a = 12", PruneMode::kExact).regions,
            R({0, 1, 2}));
  EXPECT_EQ(Prune("(a = 1 OR a = 25) AND b = 'x'", PruneMode::kExact).regions, R({0, 2}));
  // An IN list under an AND over partition columns is an AND over an OR, too.
  PruneResult in_and = Prune("a IN (1, 25) AND b = 'x'");
  EXPECT_EQ(in_and.regions, R({0, 1, 2}));
  EXPECT_EQ(in_and.reason, "Unexpected: Conjunction operation Or should be handled elsewhere");
}

// The two-column case: `a = 10 AND b = 'z'` over a rule on (a, b) selects the one
// region that holds both, where a union of the two conjuncts would select five.
TEST(PruneTwoColumnsTest, AnAndOverBothPartitionColumnsSelectsOneRegion) {
  auto parsed = sql::ParseStatements(
      "CREATE TABLE t (a INT, b STRING, ts TIMESTAMP TIME INDEX) "
      "PARTITION ON COLUMNS (a, b) (a < 10 AND b < 'm', a < 10 AND b >= 'm', "
      "a >= 10 AND a < 20 AND b < 'm', a >= 10 AND a < 20 AND b >= 'm', "
      "a >= 20 AND b < 'm', a >= 20 AND b >= 'm')",
      "test");
  ASSERT_TRUE(parsed.ok()) << parsed.error().Format();
  const auto& create = std::get<sql::CreateTable>(parsed.value()[0].body);
  auto where = sql::ParsePredicate("a = 10 AND b = 'z'", "where");
  ASSERT_TRUE(where.ok());
  for (PruneMode mode : {PruneMode::kGreptime, PruneMode::kExact}) {
    EXPECT_EQ(PruneRegions(create.rule, create.schema, where.value(), mode).regions, R({3}));
  }
  // Mixed with a non-partition column, GreptimeDB's union of `a = 10` and `b = 'z'`
  // selects every region that holds either: 1, 2, 3 and 5.
  auto mixed = sql::ParsePredicate("a = 10 AND ts > 0 AND b = 'z'", "where");
  ASSERT_TRUE(mixed.ok());
  EXPECT_EQ(PruneRegions(create.rule, create.schema, mixed.value(), PruneMode::kGreptime).regions,
            R({1, 2, 3, 5}));
  EXPECT_EQ(PruneRegions(create.rule, create.schema, mixed.value(), PruneMode::kExact).regions,
            R({3}));
  // IS NULL on a string column prunes to the regions holding the lowest value (NULL sorts
  // first in GreptimeDB's collider); on an integer column it cannot be normalised.
  auto null_b = sql::ParsePredicate("b IS NULL", "where");
  ASSERT_TRUE(null_b.ok());
  EXPECT_EQ(PruneRegions(create.rule, create.schema, null_b.value(), PruneMode::kGreptime).regions,
            R({0, 2, 4}));
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

}  // namespace prune_test
}  // namespace
}  // namespace repartsim::model
