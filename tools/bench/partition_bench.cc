// Checker cost for rules of 16, 64 and 256 regions over one column (ranges on `a`) and two
// columns (an a x b grid, and a "staggered" layout where every a-range splits b at its own
// points, which multiplies b's distinct literals). Counters report the real checker's work
// for the same rule: real_checkpoints = prod over columns of (2k+1) cartesian points,
// real_evals = real_checkpoints x atoms, which checker.rs evaluates in full.
#include <benchmark/benchmark.h>

#include <cmath>

#include "model/partition/rule.h"

namespace {

using repartsim::model::CheckMode;
using repartsim::model::ColumnType;
using repartsim::model::CompareOp;
using repartsim::model::PartitionExpr;
using repartsim::model::PartitionRule;
using repartsim::model::TableSchema;
using repartsim::model::Value;

std::vector<PartitionExpr> Ranges(const std::string& column, const std::vector<int64_t>& pts) {
  std::vector<PartitionExpr> out;
  for (size_t i = 0; i <= pts.size(); ++i) {
    std::optional<PartitionExpr> lo, hi;
    if (i > 0) lo = PartitionExpr::Leaf(column, CompareOp::kGtEq, Value::Int(pts[i - 1]));
    if (i < pts.size()) hi = PartitionExpr::Leaf(column, CompareOp::kLt, Value::Int(pts[i]));
    out.push_back(lo && hi ? PartitionExpr::And(*lo, *hi) : (lo ? *lo : *hi));
  }
  return out;
}

std::vector<int64_t> Points(size_t count, int64_t offset) {
  std::vector<int64_t> pts;
  for (size_t i = 0; i < count; ++i) pts.push_back(static_cast<int64_t>(i) * 100 + offset);
  return pts;
}

// layout 0: one column; 1: a x b grid; 2: staggered two columns.
PartitionRule MakeRule(int layout, size_t regions) {
  PartitionRule rule;
  if (layout == 0) {
    rule.columns = {"a"};
    rule.exprs = Ranges("a", Points(regions - 1, 0));
  } else {
    rule.columns = {"a", "b"};
    size_t side = static_cast<size_t>(std::lround(std::sqrt(static_cast<double>(regions))));
    std::vector<PartitionExpr> a_ranges = Ranges("a", Points(side - 1, 0));
    for (size_t i = 0; i < a_ranges.size(); ++i) {
      int64_t offset = layout == 2 ? static_cast<int64_t>(i) : 0;
      for (const PartitionExpr& b : Ranges("b", Points(side - 1, offset))) {
        rule.exprs.push_back(PartitionExpr::And(a_ranges[i], b));
      }
    }
  }
  for (size_t i = 0; i < rule.exprs.size(); ++i) rule.regions.push_back(static_cast<uint32_t>(i));
  return rule;
}

double RealCheckpoints(int layout, size_t regions) {
  if (layout == 0) return 2.0 * static_cast<double>(regions - 1) + 1;
  double side = std::round(std::sqrt(static_cast<double>(regions)));
  double a_values = side - 1;
  double b_values = layout == 1 ? side - 1 : (side - 1) * side;
  return (2 * a_values + 1) * (2 * b_values + 1);
}

void BM_CheckRule(benchmark::State& state) {
  int layout = static_cast<int>(state.range(0));
  size_t regions = static_cast<size_t>(state.range(1));
  CheckMode mode = state.range(2) == 0 ? CheckMode::kGreptime : CheckMode::kExact;
  PartitionRule rule = MakeRule(layout, regions);
  TableSchema schema;
  schema.columns = {{"a", ColumnType::kInt64, true}, {"b", ColumnType::kInt64, true}};
  for (auto _ : state) {
    auto verdict = repartsim::model::CheckRule(rule, schema, mode);
    if (verdict.has_value()) state.SkipWithError(verdict->c_str());
    benchmark::DoNotOptimize(verdict);
  }
  double checkpoints = RealCheckpoints(layout, regions);
  state.counters["regions"] = static_cast<double>(rule.exprs.size());
  state.counters["real_checkpoints"] = checkpoints;
  state.counters["real_evals"] = checkpoints * static_cast<double>(rule.exprs.size());
  state.SetLabel(layout == 0 ? "1col" : (layout == 1 ? "2col-grid" : "2col-staggered"));
}

BENCHMARK(BM_CheckRule)
    ->ArgNames({"layout", "regions", "exact"})
    ->ArgsProduct({{0, 1, 2}, {16, 64, 256}, {0, 1}})
    ->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
