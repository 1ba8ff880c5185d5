#include "model/sql/repartition_planner.h"

#include <algorithm>

#include "model/partition/region_assignment.h"
#include "model/partition/simplify.h"
#include "model/sql/expr_typing.h"

namespace repartsim::model::sql {

TableState TableState::FromCreate(const CreateTable& create) {
  TableState t;
  t.schema = create.schema;
  t.rule = create.rule;
  t.logical = !create.physical_table.empty();
  for (uint32_t r : t.rule.regions) t.max_region_number = std::max(t.max_region_number, r);
  return t;
}

std::string FullTableName(const std::string& table) {
  // Parser::TableName returns names outside greptime.public qualified, the others bare.
  if (table.find('.') != std::string::npos) return table;
  return "greptime.public." + table;
}

namespace {

using Kind = AlterRepartition::Kind;

sim::Result<std::vector<std::string>> TargetColumns(const TableState& table,
                                                    const AlterRepartition& alter,
                                                    const sim::SourceLocation& loc) {
  const TableSchema& schema = table.schema;
  bool unpartitioned_source = alter.kind == Kind::kPartitionOn;
  if (!unpartitioned_source && schema.partition_columns.empty()) {
    return sim::MakeError(loc, "Invalid partition rule: table " + FullTableName(schema.name) +
                                   " does not have partition columns, cannot repartition");
  }
  if (unpartitioned_source && !schema.partition_columns.empty()) {
    return sim::MakeError(loc, "Invalid partition rule: table " + FullTableName(schema.name) +
                                   " already has partition columns");
  }
  if (!alter.on_columns) return schema.partition_columns;
  const std::vector<std::string>& cols = *alter.on_columns;
  for (size_t i = 0; i < cols.size(); ++i) {
    if (std::find(cols.begin(), cols.begin() + static_cast<std::ptrdiff_t>(i), cols[i]) !=
        cols.begin() + static_cast<std::ptrdiff_t>(i)) {
      return sim::MakeError(loc, "Duplicate partition column: " + cols[i]);
    }
    if (!schema.FindColumn(cols[i])) {
      return sim::MakeError(loc, "Cannot find column by name: " + cols[i]);
    }
  }
  return cols;
}

// Top-level OR terms of a (merged) target, so MERGE's left fold can be simplified.
void SplitOr(const PartitionExpr& e, std::vector<PartitionExpr>& out) {
  if (e.kind() == PartitionExpr::Kind::kOr) {
    SplitOr(e.lhs(), out);
    SplitOr(e.rhs(), out);
  } else {
    out.push_back(e);
  }
}

std::optional<size_t> FindExpr(const PartitionRule& rule, const PartitionExpr& e) {
  for (size_t i = 0; i < rule.exprs.size(); ++i) {
    if (rule.exprs[i] == e) return i;
  }
  return std::nullopt;
}

// The procedure's region assignment (AssignGroupRegions, as AllocateRegion's build step runs
// it) and its Dispatch panic, per group.
void AssignRegions(RepartitionPlan& plan, uint32_t& next_region) {
  for (PlanGroup& g : plan.groups) {
    GroupRegions<uint32_t> regions =
        AssignGroupRegions(g.source_regions, g.to.size(), [&] { return next_region++; });
    g.target_regions = std::move(regions.targets);
    g.allocated_regions = std::move(regions.allocated);
    g.deallocated_regions = std::move(regions.deallocated);
    g.dispatch_panic = RegionMappingPanic(g.transition_map, g.target_regions.size());
  }
}

}  // namespace

namespace {

sim::Status CheckNewRule(const TableState& table, const RepartitionPlan& plan,
                         const sim::SourceLocation& loc, const PlanOptions& options) {
  PartitionRule new_rule;
  new_rule.columns = plan.target_columns;
  for (const PartitionExpr& e : table.rule.exprs) {
    if (std::find(plan.from.begin(), plan.from.end(), e) == plan.from.end()) {
      new_rule.exprs.push_back(e);
    }
  }
  new_rule.exprs.insert(new_rule.exprs.end(), plan.to.begin(), plan.to.end());
  for (const PartitionExpr& e : new_rule.exprs) {
    for (const std::string& c : ReferencedColumns(e)) {
      if (std::find(plan.target_columns.begin(), plan.target_columns.end(), c) ==
          plan.target_columns.end()) {
        return sim::MakeError(loc, "Invalid partition rule: partition expression '" + e.ToSql() +
                                       "' references column '" + c +
                                       "' not in target partition columns");
      }
    }
  }
  for (size_t i = 0; i < new_rule.exprs.size(); ++i) {
    new_rule.regions.push_back(static_cast<uint32_t>(i));
  }
  if (!options.check_rule) return sim::Ok{};
  if (auto error = CheckRule(new_rule, table.schema, options.check_mode)) {
    return sim::MakeError(loc, *error);
  }
  return sim::Ok{};
}

void BuildGroups(const TableState& table, RepartitionPlan& plan, const PlanOptions& options) {
  if (plan.from.empty()) {  // unpartitioned source: one group from the default region
    PlanGroup g;
    g.to = plan.to;
    g.source_regions = {table.rule.regions.empty() ? kDefaultRegion : table.rule.regions[0]};
    std::vector<size_t> all(plan.to.size());
    for (size_t j = 0; j < all.size(); ++j) all[j] = j;
    g.transition_map = {all};
    plan.groups.push_back(std::move(g));
    return;
  }
  SubtaskOptions sub{options.global_transition_indices, options.exact_overlap};
  for (const RepartitionSubtask& task : CreateSubtasks(plan.from, plan.to, sub)) {
    PlanGroup g;
    for (size_t i : task.from_expr_indices) {
      g.from.push_back(plan.from[i]);
      g.source_regions.push_back(table.rule.regions[*FindExpr(table.rule, plan.from[i])]);
    }
    for (size_t j : task.to_expr_indices) g.to.push_back(plan.to[j]);
    g.transition_map = task.transition_map;
    plan.groups.push_back(std::move(g));
  }
}

TableState ApplyGroups(const TableState& table, const RepartitionPlan& plan) {
  TableState out = table;
  out.schema.partition_columns = plan.target_columns;
  out.rule.columns = plan.target_columns;
  if (plan.from.empty()) {
    out.rule.exprs.clear();
    out.rule.regions.resize(1);
  }
  for (const PlanGroup& g : plan.groups) {
    for (size_t i = 0; i < g.target_regions.size(); ++i) {
      uint32_t region = g.target_regions[i];
      auto it = std::find(out.rule.regions.begin(), out.rule.regions.end(), region);
      if (it == out.rule.regions.end()) {
        out.rule.regions.push_back(region);
        out.rule.exprs.push_back(g.to[i]);
        continue;
      }
      size_t index = static_cast<size_t>(it - out.rule.regions.begin());
      if (index < out.rule.exprs.size()) {
        out.rule.exprs[index] = g.to[i];
      } else {
        out.rule.exprs.push_back(g.to[i]);
      }
      out.max_region_number = std::max(out.max_region_number, region);
    }
    for (uint32_t region : g.deallocated_regions) {
      auto it = std::find(out.rule.regions.begin(), out.rule.regions.end(), region);
      size_t index = static_cast<size_t>(it - out.rule.regions.begin());
      out.rule.regions.erase(it);
      out.rule.exprs.erase(out.rule.exprs.begin() + static_cast<std::ptrdiff_t>(index));
    }
    for (uint32_t region : g.allocated_regions) {
      out.max_region_number = std::max(out.max_region_number, region);
    }
  }
  return out;
}

}  // namespace

sim::Result<RepartitionPlan> PlanRepartition(const TableState& table, const AlterRepartition& alter,
                                             const sim::SourceLocation& loc,
                                             const PlanOptions& options) {
  if (alter.table != table.schema.name) {
    return sim::MakeError(loc, "Table not found: " + FullTableName(alter.table));
  }
  if (table.logical) return sim::MakeError(loc, "Not supported: REPARTITION on logical tables");
  RepartitionPlan plan;
  plan.wait = alter.wait;
  plan.timeout_ms = alter.timeout_ms;
  auto columns = TargetColumns(table, alter, loc);
  if (!columns.ok()) return columns.error();
  plan.target_columns = columns.value();
  for (const LocatedExpr& raw : alter.from) {
    auto typed = TypePartitionExpr(raw, table.schema, table.schema.partition_columns);
    if (!typed.ok()) return typed.error();
    plan.from.push_back(std::move(typed).value());
  }
  for (const LocatedExpr& raw : alter.into) {
    auto typed = TypePartitionExpr(raw, table.schema, plan.target_columns);
    if (!typed.ok()) return typed.error();
    plan.to.push_back(std::move(typed).value());
  }
  if (plan.from.size() > 1 && plan.to.size() == 1) {
    std::vector<PartitionExpr> terms;
    SplitOr(plan.to[0], terms);
    plan.to[0] = SimplifyMergedExpr(terms);
  }
  for (size_t i = 0; i < plan.from.size(); ++i) {
    if (!FindExpr(table.rule, plan.from[i])) {
      return sim::MakeError(alter.from[i].location,
                            "Invalid partition rule: partition expression '" +
                                plan.from[i].ToSql() + "' does not exist in table " +
                                FullTableName(table.schema.name));
    }
  }
  if (auto s = CheckNewRule(table, plan, loc, options); !s.ok()) return s.error();
  if (!table.gc_enabled) {
    return sim::MakeError(loc, "Invalid arguments: Repartition requires metasrv GC to be enabled");
  }
  BuildGroups(table, plan, options);
  uint32_t next_region = table.max_region_number + 1;
  AssignRegions(plan, next_region);
  plan.result = ApplyGroups(table, plan);
  plan.result.max_region_number = std::max(plan.result.max_region_number, next_region - 1);
  return plan;
}

}  // namespace repartsim::model::sql
