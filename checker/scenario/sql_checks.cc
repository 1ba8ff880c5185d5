#include "checker/scenario/sql_checks.h"

#include <algorithm>

namespace repartsim::scenario {

std::optional<std::string> WhereProblem(const model::Predicate& p,
                                        const model::TableSchema& schema) {
  if (!p.column.empty()) {
    std::optional<size_t> index = schema.FindColumn(p.column);
    if (!index) return "WHERE names unknown column '" + p.column + "'";
    const model::ColumnType type = schema.columns[*index].type;
    if (p.cast && !model::ValuePreservingCast(type, *p.cast)) {
      return "CAST(" + p.column + " AS " + std::string(model::ColumnTypeName(*p.cast)) +
             ") may change values of the " + std::string(model::ColumnTypeName(type)) +
             " column '" + p.column +
             "': the model supports casts that keep every value (the same type, a wider "
             "integer, Float32 to Float64)";
    }
  }
  for (const model::Predicate& child : p.children) {
    if (auto problem = WhereProblem(child, schema)) return problem;
  }
  return std::nullopt;
}

namespace {

// The schema indices of the columns `insert` names (every column when it names none).
sim::Result<std::vector<size_t>> InsertColumns(const model::sql::Insert& insert,
                                               const model::TableSchema& schema) {
  std::vector<size_t> columns;
  if (insert.columns.empty()) {
    for (size_t i = 0; i < schema.columns.size(); ++i) columns.push_back(i);
    return columns;
  }
  for (const std::string& name : insert.columns) {
    std::optional<size_t> index = schema.FindColumn(name);
    if (!index) return sim::MakeError({}, "INSERT names unknown column '" + name + "'");
    if (std::find(columns.begin(), columns.end(), *index) != columns.end()) {
      return sim::MakeError({}, "INSERT names column '" + name + "' twice");
    }
    columns.push_back(*index);
  }
  return columns;
}

}  // namespace

sim::Result<std::vector<model::Row>> InsertRows(const model::sql::Insert& insert,
                                                const model::TableSchema& schema) {
  auto named = InsertColumns(insert, schema);
  if (!named.ok()) return named.error();
  const std::vector<size_t>& columns = named.value();
  std::vector<model::Row> rows;
  for (size_t r = 0; r < insert.rows.size(); ++r) {
    const sim::SourceLocation& at = insert.row_locations.at(r);
    if (insert.rows[r].size() != columns.size()) {
      return sim::MakeError(at, "INSERT row has " + std::to_string(insert.rows[r].size()) +
                                    " values for " + std::to_string(columns.size()) + " columns");
    }
    model::Row row(schema.columns.size(), model::Value::Null());
    for (size_t i = 0; i < columns.size(); ++i) {
      const model::Column& column = schema.columns[columns[i]];
      auto value = model::ConvertToColumnType(insert.rows[r][i], column.type);
      if (!value.ok()) {
        return sim::MakeError(at, "column '" + column.name + "': " + value.error().message);
      }
      row[columns[i]] = value.value();
    }
    // Every row needs its time index and every NOT NULL column (GreptimeDB refuses the write).
    for (size_t c = 0; c < schema.columns.size(); ++c) {
      const model::Column& column = schema.columns[c];
      if (!row[c].is_null() || (column.nullable && c != schema.time_index)) continue;
      return sim::MakeError(at, "column '" + column.name + "' " +
                                    (c == schema.time_index ? "is the time index" : "is NOT NULL") +
                                    " and cannot be NULL");
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace repartsim::scenario
