#include "model/frontend/ddl_validation.h"

#include "model/protocol/rules.h"

namespace repartsim::model {

sim::Result<sql::RepartitionPlan> ValidateRepartition(const TableInfo& info,
                                                      const TableRoute& route,
                                                      const sql::AlterRepartition& alter,
                                                      bool gc_enabled, const Protocol& protocol,
                                                      bool check_rule) {
  sql::TableState table;
  table.schema = info.schema;
  table.rule.columns = info.PartitionColumnNames();
  // partition_key_indices is what a repartition updates (UpdatePartitionMetadata); the
  // schema's own list is the one CREATE TABLE wrote.
  table.schema.partition_columns = table.rule.columns;
  for (const RegionRoute& r : route.region_routes) {
    if (!r.partition_expr.has_value()) continue;
    table.rule.regions.push_back(r.region_id.region_number().value);
    table.rule.exprs.push_back(*r.partition_expr);
  }
  table.max_region_number = route.max_region_number.value;
  table.gc_enabled = gc_enabled;
  sql::PlanOptions options;
  options.check_mode =
      protocol.On(Rule::kExactRuleChecker) ? CheckMode::kExact : CheckMode::kGreptime;
  options.global_transition_indices = !protocol.On(Rule::kPerGroupIndices);
  options.exact_overlap = protocol.On(Rule::kExactRuleChecker);
  options.check_rule = check_rule;
  return sql::PlanRepartition(table, alter, sim::SourceLocation{}, options);
}

}  // namespace repartsim::model
