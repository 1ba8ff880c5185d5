#include "model/frontend/write_router.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "model/frontend/partition_view.h"
#include "model/node/refusal.h"
#include "model/partition/expr.h"
#include "model/partition/rule.h"
#include "model/protocol/rules.h"

namespace repartsim::model {

namespace {

// The row path under Rule::kUnifiedNullRouting: first match with the filter-path predicate, so
// routing agrees with the bulk path and the datanode file filter, NULL included.
uint32_t FindRegionUnified(const PartitionRule& rule, const TableSchema& schema, const Row& row) {
  size_t n = std::min(rule.regions.size(), rule.exprs.size());
  for (size_t i = 0; i < n; ++i) {
    if (MatchesFilterPath(rule.exprs[i], schema, row)) return rule.regions[i];
  }
  return kDefaultRegion;
}

// Under Rule::kUnifiedNullRouting a row no write expression matches may fall back to region 0
// only when region 0 has no expression (an unpartitioned source, which owns every row); a
// region with an expression cannot own it: its file filter would drop the row as soon as the
// file is remapped (P7: NULL under `a = 5, a <> 5`), losing an acknowledged write.
bool UnownedRow(const PartitionRule& rule, const TableRoute& route, const TableSchema& schema,
                const Row& row) {
  size_t n = std::min(rule.regions.size(), rule.exprs.size());
  for (size_t i = 0; i < n; ++i) {
    if (MatchesFilterPath(rule.exprs[i], schema, row)) return false;
  }
  for (const RegionRoute& r : route.region_routes) {
    if (r.region_id.region_number().value == kDefaultRegion) return r.partition_expr.has_value();
  }
  return true;
}

// The first column `expr` names that is not in `columns`, if any.
const std::string* ColumnOutside(const PartitionExpr& expr,
                                 const std::vector<std::string>& columns) {
  if (!expr.is_leaf()) {
    if (const std::string* c = ColumnOutside(expr.lhs(), columns)) return c;
    return ColumnOutside(expr.rhs(), columns);
  }
  if (std::find(columns.begin(), columns.end(), expr.column()) != columns.end()) return nullptr;
  return &expr.column();
}

// The real row path evaluates each expression, in rule order, over the values of the rule's
// partition columns only: an expression reached before a match that names another column
// fails the whole insert with an undefined column (multi_dim.rs evaluate_expr). That happens
// between UpdatePartitionMetadata and ApplyStaging of an ON COLUMNS repartition, when the
// column list is already the new one but the expressions are still the old ones (P13).
const std::string* RowPathUndefinedColumn(const PartitionRule& rule, const TableSchema& schema,
                                          const Row& row) {
  size_t n = std::min(rule.regions.size(), rule.exprs.size());
  for (size_t i = 0; i < n; ++i) {
    if (const std::string* c = ColumnOutside(rule.exprs[i], rule.columns)) return c;
    if (MatchesRowPath(rule.exprs[i], schema, row)) return nullptr;
  }
  return nullptr;
}

}  // namespace

WriteRouting RouteWrite(const CachedTable& cached, TableId table, std::vector<Row> rows,
                        WritePath path, const Protocol& protocol) {
  WriteRouting routing;
  const PartitionView& view = cached.View(protocol);
  const TableSchema& schema = cached.info.schema;
  const bool unified = protocol.On(Rule::kUnifiedNullRouting);
  const bool vectorised = SplitsVectorised(path);
  if (!vectorised && !protocol.On(Rule::kRowPathOverSchema)) {
    for (const Row& row : rows) {
      if (const std::string* column = RowPathUndefinedColumn(view.write_rule, schema, row)) {
        ++routing.error_count;
        routing.error = std::string(kUndefinedColumnError) + *column +
                        " (not a partition column of table " + table.ToString() + ")";
        return routing;
      }
    }
  }
  std::map<uint32_t, std::vector<Row>> by_region;
  for (Row& row : rows) {
    if (unified && UnownedRow(view.write_rule, cached.route, schema, row)) {
      ++routing.error_count;
      routing.error =
          "No partition of table " + table.ToString() + " covers the row (unified-null-routing)";
      continue;
    }
    if (vectorised) {
      std::vector<uint32_t> targets = RegionsBulkPath(view.write_rule, schema, row);
      for (size_t i = 0; i + 1 < targets.size(); ++i) by_region[targets[i]].push_back(row);
      by_region[targets.back()].push_back(std::move(row));
    } else {
      uint32_t region = unified ? FindRegionUnified(view.write_rule, schema, row)
                                : FindRegionRowPath(view.write_rule, schema, row);
      by_region[region].push_back(std::move(row));
    }
  }
  for (auto& [number, region_rows] : by_region) {
    const RegionRoute* route = RouteOfNumber(cached.route, number);
    if (route == nullptr || !route->leader.has_value()) {
      ++routing.error_count;
      routing.error = "Failed to find leader for region " +
                      RegionId::Of(table, RegionNumber{number}).ToString();
      continue;
    }
    RegionWrite write{route->region_id, std::move(region_rows), std::nullopt};
    // The pending-rows batcher never stamps a version (P10); the row path and the Flight path
    // stamp a region's version when it has one. Under the unversioned fence every write is
    // stamped, 0 for a region without expression.
    // Without versioned writes (before GreptimeDB #7628) no write carries a version.
    const auto version = view.versions.find(number);
    const bool has_version = version != view.versions.end();
    if (protocol.On(Rule::kVersionedRowWrites)) {
      if (protocol.On(Rule::kVersionFenceUnversioned)) {
        write.version = has_version ? version->second : 0;
      } else if (path != WritePath::kBatcher && has_version) {
        write.version = version->second;
      }
    }
    routing.by_node[*route->leader].push_back(std::move(write));
  }
  return routing;
}

}  // namespace repartsim::model
