// Goal: seeded property tests (10,000 cases each) for the partition model: pruning is sound,
// accepted rules route every NULL-free row to exactly one region on both paths, grouping
// covers every changed expression exactly once, and merge simplification preserves the rows
// an OR matches. Method: property_gen.h draws rules, rows and predicates from sim::Prng; a
// failure message names the case seed so it can be replayed.
#include <gtest/gtest.h>

#include "model/partition/predicate.h"
#include "model/partition/prune.h"
#include "model/partition/simplify.h"
#include "model/partition/subtask.h"
#include "tests/model/partition/property_gen.h"

namespace repartsim::model {
namespace {
namespace property_test {

using testing::PropertySchema;
constexpr uint64_t kCases = 10000;

PartitionRule Perturb(sim::Prng& prng, PartitionRule rule) {
  uint64_t what = prng.Below(4);
  size_t i = prng.Below(rule.exprs.size());
  if (what == 0 && rule.exprs.size() > 1) {
    rule.exprs.erase(rule.exprs.begin() + static_cast<std::ptrdiff_t>(i));
    rule.regions.pop_back();
  } else if (what == 1) {
    rule.exprs.push_back(rule.exprs[i]);
    rule.regions.push_back(static_cast<uint32_t>(rule.regions.size()));
  } else if (what == 2) {
    rule.exprs[i] =
        PartitionExpr::Leaf("a", CompareOp::kLt, Value::Int(testing::Pick(prng, -20, 20)));
  }
  return rule;
}

TEST(PartitionPropertyTest, AcceptedRulesRouteEveryRowToExactlyOneRegion) {
  TableSchema schema = PropertySchema();
  uint64_t accepted = 0;
  for (uint64_t seed = 0; seed < kCases; ++seed) {
    sim::Prng prng(seed);
    PartitionRule rule = Perturb(prng, testing::ValidRule(prng));
    CheckMode mode = prng.Below(2) == 0 ? CheckMode::kGreptime : CheckMode::kExact;
    if (CheckRule(rule, schema, mode).has_value()) continue;
    ++accepted;
    for (int r = 0; r < 20; ++r) {
      Row row = testing::RandomRow(prng, false);
      int row_matches = 0;
      for (const PartitionExpr& e : rule.exprs) row_matches += MatchesRowPath(e, schema, row);
      ASSERT_EQ(row_matches, 1) << "seed " << seed;
      std::vector<uint32_t> bulk = RegionsBulkPath(rule, schema, row);
      ASSERT_EQ(bulk, std::vector<uint32_t>{FindRegionRowPath(rule, schema, row)})
          << "seed " << seed;
    }
  }
  EXPECT_GT(accepted, kCases / 5);  // the property must not hold vacuously
}

TEST(PartitionPropertyTest, PruningIsSound) {
  TableSchema schema = PropertySchema();
  uint64_t pruned = 0;
  for (uint64_t seed = 0; seed < kCases; ++seed) {
    sim::Prng prng(seed);
    PartitionRule rule = testing::ValidRule(prng);
    Predicate where = testing::RandomPredicate(prng, 2);
    for (PruneMode mode : {PruneMode::kGreptime, PruneMode::kExact}) {
      PruneResult result = PruneRegions(rule, schema, where, mode);
      pruned += result.regions.size() < rule.regions.size();
      sim::Prng rows = prng.Fork();
      for (int r = 0; r < 30; ++r) {
        Row row = testing::RandomRow(rows, true);
        if (!EvaluatePredicate(where, schema, row)) continue;
        std::vector<uint32_t> owners = RegionsBulkPath(rule, schema, row);
        owners.push_back(FindRegionRowPath(rule, schema, row));
        for (uint32_t owner : owners) {
          ASSERT_TRUE(std::binary_search(result.regions.begin(), result.regions.end(), owner))
              << "seed " << seed << " where " << where.ToSql() << " owner " << owner;
        }
      }
    }
  }
  EXPECT_GT(pruned, kCases / 4);  // pruning must actually prune
}

// Renames some columns to one the schema lacks and turns some nodes into kOther (with and
// without a column), so that BoundPredicate meets every shape Eval handles.
void Roughen(sim::Prng& prng, Predicate& p) {
  if (!p.column.empty() && prng.Below(8) == 0) p.column = "zz";
  if (prng.Below(16) == 0) {
    p.kind = Predicate::Kind::kOther;
    if (prng.Below(2) == 0) p.column.clear();
    return;  // Eval reads no child of a kOther node
  }
  for (Predicate& child : p.children) Roughen(prng, child);
}

TEST(PartitionPropertyTest, ABoundPredicateAgreesWithEvaluatePredicate) {
  TableSchema schema = PropertySchema();
  uint64_t matched = 0;
  uint64_t rows = 0;
  for (uint64_t seed = 0; seed < kCases; ++seed) {
    sim::Prng prng(seed);
    Predicate where = testing::RandomPredicate(prng, 3);
    Roughen(prng, where);
    const BoundPredicate bound(where, schema);
    ASSERT_EQ(bound.predicate(), &where);
    for (int r = 0; r < 20; ++r) {
      Row row = testing::RandomRow(prng, true);
      const bool expected = EvaluatePredicate(where, schema, row);
      ASSERT_EQ(bound.Evaluate(row), expected) << "seed " << seed << " where " << where.ToSql();
      matched += expected;
      ++rows;
    }
  }
  // Neither answer may hold vacuously.
  EXPECT_GT(matched, rows / 10);
  EXPECT_LT(matched, rows - rows / 10);
}

TEST(PartitionPropertyTest, GroupingCoversEveryChangedExpressionExactlyOnce) {
  uint64_t multi_group = 0;
  for (uint64_t seed = 0; seed < kCases; ++seed) {
    sim::Prng prng(seed);
    PartitionRule before = testing::ValidRule(prng);
    PartitionRule after = testing::ValidRule(prng);
    std::vector<PartitionExpr> from;
    std::vector<PartitionExpr> to;
    for (const auto& e : before.exprs) {
      if (std::find(after.exprs.begin(), after.exprs.end(), e) == after.exprs.end())
        from.push_back(e);
    }
    for (const auto& e : after.exprs) {
      if (std::find(before.exprs.begin(), before.exprs.end(), e) == before.exprs.end())
        to.push_back(e);
    }
    bool exact = prng.Below(2) == 0;
    auto tasks = CreateSubtasks(from, to, {false, exact});
    multi_group += tasks.size() > 1;
    std::vector<int> from_seen(from.size(), 0);
    std::vector<int> to_seen(to.size(), 0);
    for (const auto& t : tasks) {
      ASSERT_EQ(t.transition_map.size(), t.from_expr_indices.size());
      for (size_t i : t.from_expr_indices) ++from_seen[i];
      for (size_t j : t.to_expr_indices) ++to_seen[j];
      for (const auto& targets : t.transition_map) {
        ASSERT_FALSE(targets.empty()) << "seed " << seed;
        for (size_t k : targets) ASSERT_LT(k, t.to_expr_indices.size()) << "seed " << seed;
      }
    }
    for (int n : from_seen) ASSERT_EQ(n, 1) << "seed " << seed;
    for (int n : to_seen) ASSERT_EQ(n, 1) << "seed " << seed;
  }
  EXPECT_GT(multi_group, 0u);
}

TEST(PartitionPropertyTest, SimplificationPreservesMatchedRows) {
  TableSchema schema = PropertySchema();
  uint64_t simplified = 0;
  for (uint64_t seed = 0; seed < kCases; ++seed) {
    sim::Prng prng(seed);
    PartitionRule rule = testing::ValidRule(prng);
    std::vector<PartitionExpr> sources;
    for (uint64_t i = 0, n = 2 + prng.Below(3); i < n && i < rule.exprs.size(); ++i) {
      sources.push_back(rule.exprs[prng.Below(rule.exprs.size())]);
    }
    if (sources.size() < 2) continue;
    PartitionExpr merged = FoldOr(sources);
    PartitionExpr simple = SimplifyMergedExpr(sources);
    simplified += !(simple == merged);
    for (int r = 0; r < 30; ++r) {
      Row row = testing::RandomRow(prng, true);
      ASSERT_EQ(MatchesRowPath(merged, schema, row), MatchesRowPath(simple, schema, row))
          << "seed " << seed << ": " << merged.ToSql() << " vs " << simple.ToSql();
      ASSERT_EQ(MatchesFilterPath(merged, schema, row), MatchesFilterPath(simple, schema, row))
          << "seed " << seed << ": " << merged.ToSql() << " vs " << simple.ToSql();
    }
  }
  EXPECT_GT(simplified, kCases / 10);
}

}  // namespace property_test
}  // namespace
}  // namespace repartsim::model
