// P0 RepartitionStart (docs/protocol.md section 10.3): checks the request, builds one plan entry
// per group (connected component of the old->new overlap graph) and decides whether partition
// metadata must change first. Nothing is persisted before this state returns.
#include <algorithm>

#include "model/partition/rule.h"
#include "model/partition/subtask.h"
#include "model/protocol/rules.h"
#include "model/repartition/repartition_procedure.h"
#include "model/repartition/route_access.h"
#include "sim/assert.h"

namespace repartsim::model {

namespace {

// Column indices of `names` in `schema`; nullopt if one is unknown.
std::optional<std::vector<size_t>> ColumnIndices(const TableSchema& schema,
                                                 const std::vector<std::string>& names) {
  std::vector<size_t> out;
  for (const std::string& name : names) {
    std::optional<size_t> index = schema.FindColumn(name);
    if (!index.has_value()) return std::nullopt;
    out.push_back(*index);
  }
  return out;
}

}  // namespace

Step RepartitionProcedure::RepartitionStart(MetasrvEnv& env) {
  REPARTSIM_ASSERT(state_ == State::kRepartitionStart);
  if (ctx_.to_exprs.empty()) return Step::Error("Invalid arguments: empty target expressions");
  std::optional<InfoSnapshot> info = ReadInfoSnapshot(env.kv(), ctx_.table);
  std::optional<RouteSnapshot> route = ReadRouteSnapshot(env, ctx_.table);
  if (!info.has_value() || !route.has_value()) {
    return Step::Error("Table not found: " + ctx_.table.ToString());
  }
  const std::vector<RegionRoute>& routes = route->route.region_routes;
  ctx_.plans.clear();
  if (!info->info.is_partitioned()) {
    // Unpartitioned: one Default source, one plan covering every target.
    if (!ctx_.target_columns.has_value() || ctx_.target_columns->empty()) {
      return Step::Error("Invalid arguments: partition columns are required");
    }
    std::optional<std::vector<size_t>> target =
        ColumnIndices(info->info.schema, *ctx_.target_columns);
    if (!target.has_value()) return Step::Error("Invalid arguments: unknown partition column");
    if (routes.size() != 1 || routes[0].partition_expr.has_value()) {
      return Step::Error("Unexpected: an unpartitioned table must have one expression-less region");
    }
    ctx_.metadata_update = PartitionMetadataUpdate{{}, *target};
    PlanEntry plan;
    plan.group_id = ctx_.next_group_id++;
    plan.sources.push_back(SourceDescriptor{routes[0].region_id, std::nullopt});
    plan.target_exprs = ctx_.to_exprs;
    std::vector<size_t> all(ctx_.to_exprs.size());
    for (size_t i = 0; i < all.size(); ++i) all[i] = i;
    plan.transition_map.push_back(all);
    ctx_.plans.push_back(std::move(plan));
  } else {
    if (ctx_.target_columns.has_value()) {
      std::optional<std::vector<size_t>> target =
          ColumnIndices(info->info.schema, *ctx_.target_columns);
      if (!target.has_value() || target->empty()) {
        return Step::Error("Invalid arguments: unknown partition column");
      }
      ctx_.metadata_update = PartitionMetadataUpdate{info->info.partition_key_indices, *target};
    }
    std::vector<SourceDescriptor> sources;
    for (const PartitionExpr& from : ctx_.from_exprs) {
      const std::string text = from.CanonicalText();
      auto it = std::find_if(routes.begin(), routes.end(),
                             [&](const RegionRoute& r) { return r.ExprText() == text; });
      if (it == routes.end()) {
        return Step::Error("RepartitionSourceExprMismatch: source expression " + from.ToSql() +
                           " does not exist in the route of table " + ctx_.table.ToString());
      }
      sources.push_back(SourceDescriptor{it->region_id, from});
    }
    if (env.protocol().On(Rule::kMetasrvValidatesRule)) {
      // The rule after the change: every untouched route expression plus the targets.
      PartitionRule rule;
      rule.columns = ctx_.target_columns.value_or(info->info.PartitionColumnNames());
      for (const RegionRoute& r : routes) {
        if (!r.partition_expr.has_value()) continue;
        bool is_source =
            std::any_of(sources.begin(), sources.end(),
                        [&](const SourceDescriptor& s) { return s.region == r.region_id; });
        if (!is_source) rule.exprs.push_back(*r.partition_expr);
      }
      rule.exprs.insert(rule.exprs.end(), ctx_.to_exprs.begin(), ctx_.to_exprs.end());
      for (size_t i = 0; i < rule.exprs.size(); ++i)
        rule.regions.push_back(static_cast<uint32_t>(i));
      if (std::optional<std::string> error =
              CheckRule(rule, info->info.schema, CheckMode::kExact)) {
        return Step::Error("Invalid partition rule: " + *error);
      }
    }
    SubtaskOptions options;
    options.global_transition_indices = !env.protocol().On(Rule::kPerGroupIndices);
    options.exact_overlap = env.protocol().On(Rule::kExactRuleChecker);
    for (const RepartitionSubtask& subtask :
         CreateSubtasks(ctx_.from_exprs, ctx_.to_exprs, options)) {
      PlanEntry plan;
      plan.group_id = ctx_.next_group_id++;
      for (size_t i : subtask.from_expr_indices) plan.sources.push_back(sources[i]);
      for (size_t i : subtask.to_expr_indices) plan.target_exprs.push_back(ctx_.to_exprs[i]);
      plan.transition_map = subtask.transition_map;
      ctx_.plans.push_back(std::move(plan));
    }
    if (ctx_.plans.empty()) {
      state_ = State::kRepartitionEnd;
      return Step::Done();
    }
  }
  ctx_.dispatch_plans.clear();
  for (size_t i = 0; i < ctx_.plans.size(); ++i) ctx_.dispatch_plans.push_back(i);
  REPARTSIM_ASSERT(!ctx_.dispatch_plans.empty());
  REPARTSIM_ASSERT(ctx_.next_group_id > ctx_.plans.size());
  if (ctx_.metadata_update.has_value()) {
    state_ = State::kUpdatePartitionMetadata;
    return Step::Next(/*persist=*/true);
  }
  state_ = State::kAllocateRegionBuild;
  return Step::Next(/*persist=*/false);
}

}  // namespace repartsim::model
