// What the console answers from metadata: SHOW CREATE TABLE (GreptimeDB's rendering of the
// table info and partition rule the metasrv holds) and information_schema.partitions, and the
// result tables of a SELECT (ORDER BY, column list) shared with the tables' own queries.
#include <algorithm>

#include "checker/console/session_impl.h"
#include "model/meta/table_metadata.h"
#include "sim/assert.h"

namespace repartsim::console {

namespace {

// GreptimeDB's SQL name of a column type (concrete_data_type_to_sql_data_type).
const char* SqlTypeName(model::ColumnType type) {
  switch (type) {
    case model::ColumnType::kBool:
      return "BOOLEAN";
    case model::ColumnType::kInt8:
      return "TINYINT";
    case model::ColumnType::kInt16:
      return "SMALLINT";
    case model::ColumnType::kInt32:
      return "INT";
    case model::ColumnType::kInt64:
      return "BIGINT";
    case model::ColumnType::kUInt8:
      return "TINYINT UNSIGNED";
    case model::ColumnType::kUInt16:
      return "SMALLINT UNSIGNED";
    case model::ColumnType::kUInt32:
      return "INT UNSIGNED";
    case model::ColumnType::kUInt64:
      return "BIGINT UNSIGNED";
    case model::ColumnType::kFloat32:
      return "FLOAT";
    case model::ColumnType::kFloat64:
      return "DOUBLE";
    case model::ColumnType::kString:
      return "STRING";
    case model::ColumnType::kTimestamp:
      return "TIMESTAMP(3)";
  }
  REPARTSIM_UNREACHABLE();
}

std::string Quoted(const std::string& name) { return "\"" + name + "\""; }

// `"a", "b"`.
std::string QuotedList(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names) out += (out.empty() ? "" : ", ") + Quoted(name);
  return out;
}

// Lines indented by two spaces, joined by ",\n" (format_list_indent!).
std::string IndentedList(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "  " : ",\n  ") + item;
  return out;
}

// The route's partition expressions by region number (the partition manager's order).
std::vector<const model::RegionRoute*> ByRegion(const model::TableRoute& route) {
  std::vector<const model::RegionRoute*> regions;
  for (const model::RegionRoute& r : route.region_routes) regions.push_back(&r);
  std::sort(regions.begin(), regions.end(),
            [](const auto* a, const auto* b) { return a->region_id < b->region_id; });
  return regions;
}

// CreateTable's Display (src/sql/src/statements/create.rs) for the table as it is now.
std::string CreateTableText(const model::TableInfo& info, const model::TableRoute& route) {
  const model::TableSchema& schema = info.schema;
  std::vector<std::string> columns;
  for (size_t c = 0; c < schema.columns.size(); ++c) {
    const model::Column& column = schema.columns[c];
    const bool nullable = column.nullable && c != schema.time_index;
    columns.push_back(Quoted(column.name) + " " + SqlTypeName(column.type) +
                      (nullable ? " NULL" : " NOT NULL"));
  }
  std::vector<std::string> constraints = {"TIME INDEX (" +
                                          Quoted(schema.columns[schema.time_index].name) + ")"};
  if (!schema.primary_key.empty()) {
    std::vector<std::string> key;
    for (size_t c : schema.primary_key) key.push_back(schema.columns[c].name);
    constraints.push_back("PRIMARY KEY (" + QuotedList(key) + ")");
  }
  std::string out = "CREATE TABLE IF NOT EXISTS " + Quoted(info.name) + " (\n" +
                    IndentedList(columns) + ",\n" + IndentedList(constraints) + "\n)\n";
  if (info.is_partitioned()) {
    std::vector<std::string> exprs;
    for (const model::RegionRoute* r : ByRegion(route)) {
      if (r->partition_expr) exprs.push_back(r->partition_expr->ToSql());
    }
    out += "PARTITION ON COLUMNS (" + QuotedList(info.PartitionColumnNames()) + ") (\n" +
           IndentedList(exprs) + "\n)\n";
  }
  out += "ENGINE=" + info.engine + "\n";
  if (schema.append_mode) out += "WITH(\n  append_mode = 'true'\n)";
  return out;
}

// information_schema.partitions' columns (src/catalog/.../information_schema/partitions.rs).
model::TableSchema PartitionsSchema() {
  using model::ColumnType;
  model::TableSchema schema;
  schema.name = std::string(kPartitionsTable);
  const std::pair<const char*, ColumnType> columns[] = {
      {"table_catalog", ColumnType::kString},
      {"table_schema", ColumnType::kString},
      {"table_name", ColumnType::kString},
      {"partition_name", ColumnType::kString},
      {"subpartition_name", ColumnType::kString},
      {"partition_ordinal_position", ColumnType::kInt64},
      {"subpartition_ordinal_position", ColumnType::kInt64},
      {"partition_method", ColumnType::kString},
      {"subpartition_method", ColumnType::kString},
      {"partition_expression", ColumnType::kString},
      {"subpartition_expression", ColumnType::kString},
      {"partition_description", ColumnType::kString},
      {"table_rows", ColumnType::kInt64},
      {"avg_row_length", ColumnType::kInt64},
      {"data_length", ColumnType::kInt64},
      {"max_data_length", ColumnType::kInt64},
      {"index_length", ColumnType::kInt64},
      {"data_free", ColumnType::kInt64},
      {"create_time", ColumnType::kTimestamp},
      {"update_time", ColumnType::kTimestamp},
      {"check_time", ColumnType::kTimestamp},
      {"checksum", ColumnType::kInt64},
      {"partition_comment", ColumnType::kString},
      {"nodegroup", ColumnType::kString},
      {"tablespace_name", ColumnType::kString},
      {"greptime_partition_id", ColumnType::kUInt64},
  };
  for (const auto& [name, type] : columns) schema.columns.push_back({name, type, true});
  schema.time_index = 18;  // create_time: a row needs one; nothing reads it as such
  return schema;
}

// The columns a predicate names, depth first.
void PredicateColumns(const model::Predicate& p, std::vector<std::string>& out) {
  if (!p.column.empty()) out.push_back(p.column);
  for (const model::Predicate& child : p.children) PredicateColumns(child, out);
}

}  // namespace

std::optional<Answer> UnknownField(const model::sql::Select& select,
                                   const model::TableSchema& schema) {
  std::vector<std::string> named = select.columns;
  if (select.where) PredicateColumns(*select.where, named);
  for (const model::sql::OrderByItem& item : select.order_by) named.push_back(item.column);
  for (const std::string& column : named) {
    if (schema.FindColumn(column)) continue;
    std::string valid;
    for (const model::Column& c : schema.columns) {
      valid += (valid.empty() ? "" : ", ") + schema.name + "." + c.name;
    }
    return Answer::Error(StatusCode::kPlanQuery, "Failed to plan SQL: No field named " + column +
                                                     ". Valid fields are " + valid + ".");
  }
  return std::nullopt;
}

Answer RowsAnswer(const model::TableSchema& schema, std::vector<model::Row> rows,
                  const model::sql::Select& select) {
  std::vector<std::pair<size_t, bool>> keys;  // column index, descending
  for (const model::sql::OrderByItem& item : select.order_by) {
    keys.push_back({*schema.FindColumn(item.column), item.descending});
  }
  std::stable_sort(rows.begin(), rows.end(), [&](const model::Row& a, const model::Row& b) {
    for (const auto& [column, descending] : keys) {
      const int order = model::TotalOrder(a[column], b[column]);
      if (order != 0) return descending ? order > 0 : order < 0;
    }
    return false;
  });
  std::vector<size_t> shown;
  for (const std::string& name : select.columns) shown.push_back(*schema.FindColumn(name));
  if (select.columns.empty()) {
    for (size_t c = 0; c < schema.columns.size(); ++c) shown.push_back(c);
  }
  std::vector<std::string> columns;
  for (size_t c : shown) columns.push_back(schema.columns[c].name);
  std::vector<std::vector<std::string>> cells;
  for (const model::Row& row : rows) {
    std::vector<std::string>& line = cells.emplace_back();
    for (size_t c : shown) line.push_back(CellText(row[c]));
  }
  return Answer::Table(std::move(columns), std::move(cells));
}

Answer Session::Impl::ShowCreateTable(const std::string& name) {
  const model::TableId* table = FindTable(name);
  if (table == nullptr) {
    return Answer::Error(StatusCode::kTableNotFound,
                         "Table not found: " + model::sql::FullTableName(name));
  }
  std::optional<model::TableInfo> info = model::ReadTableInfo(cluster_.metasrv().kv(), *table);
  std::optional<model::TableRoute> route = model::ReadTableRoute(cluster_.metasrv().kv(), *table);
  REPARTSIM_ASSERT(info.has_value() && route.has_value());
  return Answer::Table({"Table", "Create Table"}, {{name, CreateTableText(*info, *route)}});
}

Answer Session::Impl::Partitions(const model::sql::Select& select) {
  const model::TableSchema schema = PartitionsSchema();
  if (auto unknown = UnknownField(select, schema)) return *unknown;
  std::vector<model::Row> rows;
  for (const auto& [name, id] : tables_) {
    std::optional<model::TableInfo> info = model::ReadTableInfo(cluster_.metasrv().kv(), id);
    std::optional<model::TableRoute> route = model::ReadTableRoute(cluster_.metasrv().kv(), id);
    REPARTSIM_ASSERT(info.has_value() && route.has_value());
    std::string columns;
    for (const std::string& c : info->PartitionColumnNames()) {
      columns += (columns.empty() ? "" : ", ") + c;
    }
    int64_t index = 0;
    for (const model::RegionRoute* r : ByRegion(*route)) {
      model::Row row(schema.columns.size(), model::Value::Null());
      row[0] = model::Value::String("greptime");
      row[1] = model::Value::String("public");
      row[2] = model::Value::String(name);
      row[3] = model::Value::String("p" + std::to_string(index));
      row[5] = model::Value::Int(index + 1);
      row[7] = model::Value::String("RANGE");
      if (!columns.empty()) row[9] = model::Value::String(columns);
      if (r->partition_expr) row[11] = model::Value::String(r->partition_expr->ToSql());
      row[18] = model::Value::Timestamp(created_ms_.at(id) / 1000 * 1000);  // seconds
      row[25] = model::Value::UInt(r->region_id.value);
      ++index;
      if (!select.where || model::EvaluatePredicate(*select.where, schema, row)) {
        rows.push_back(std::move(row));
      }
    }
  }
  if (select.count_star) {
    return Answer::Table({"count(*)"}, {{std::to_string(rows.size())}});
  }
  return RowsAnswer(schema, std::move(rows), select);
}

}  // namespace repartsim::console
