#include "model/frontend/partition_view.h"

#include "model/protocol/rules.h"

namespace repartsim::model {

PartitionView BuildPartitionView(const TableRoute& route, const TableInfo& info,
                                 const Protocol& protocol) {
  PartitionView view;
  view.write_rule.columns = info.PartitionColumnNames();
  const bool aligned = protocol.On(Rule::kAlignedPartitionRule);
  for (const RegionRoute& r : route.region_routes) {
    view.read_regions.push_back(r.region_id);
    if (r.ignores_writes()) continue;
    const uint32_t number = r.region_id.region_number().value;
    if (r.partition_expr.has_value()) {
      view.write_rule.exprs.push_back(*r.partition_expr);
      view.versions[number] = r.ExprVersionValue();
    }
    // The real frontend lists every write partition but only the exprs that exist, and the
    // rule zips the two lists by index (P3); the aligned rule leaves expr-less regions out.
    if (!aligned || r.partition_expr.has_value()) view.write_rule.regions.push_back(number);
  }
  return view;
}

const RegionRoute* RouteOfNumber(const TableRoute& route, uint32_t number) {
  for (const RegionRoute& r : route.region_routes) {
    if (r.region_id.region_number().value == number) return &r;
  }
  return nullptr;
}

}  // namespace repartsim::model
