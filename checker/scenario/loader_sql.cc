// SQL steps: one SQL text -> one scripted op per statement (INSERT rows converted to the
// column types in schema order, SELECT with its WHERE columns checked, ALTER TABLE ...
// REPARTITION); SQL errors are re-located into the YAML file.
#include <algorithm>

#include "checker/scenario/loader_internal.h"
#include "model/partition/schema.h"
#include "model/sql/parser.h"

namespace repartsim::scenario {

namespace {

// Checks every column a predicate names and every CAST; returns the first problem.
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

// Builds the rows of an INSERT in schema order, converting each value to its column type.
std::optional<std::vector<model::Row>> InsertRows(const model::sql::Insert& insert,
                                                  const YAML::Node& node, LoadContext& ctx,
                                                  const Scenario& s, const std::string& path) {
  const model::TableSchema& schema = s.table.schema;
  std::vector<size_t> columns;
  if (insert.columns.empty()) {
    for (size_t i = 0; i < schema.columns.size(); ++i) columns.push_back(i);
  } else {
    for (const std::string& name : insert.columns) {
      std::optional<size_t> index = schema.FindColumn(name);
      if (!index) {
        ctx.Fail(node, path, "INSERT names unknown column '" + name + "'");
        return std::nullopt;
      }
      if (std::find(columns.begin(), columns.end(), *index) != columns.end()) {
        ctx.Fail(node, path, "INSERT names column '" + name + "' twice");
        return std::nullopt;
      }
      columns.push_back(*index);
    }
  }
  std::vector<model::Row> rows;
  for (size_t r = 0; r < insert.rows.size(); ++r) {
    const sim::SourceLocation& at = insert.row_locations.at(r);
    if (insert.rows[r].size() != columns.size()) {
      ctx.FailAt(ctx.Relocate(node, at.line, at.column), path,
                 "INSERT row has " + std::to_string(insert.rows[r].size()) + " values for " +
                     std::to_string(columns.size()) + " columns");
      return std::nullopt;
    }
    model::Row row(schema.columns.size(), model::Value::Null());
    for (size_t i = 0; i < columns.size(); ++i) {
      const model::Column& column = schema.columns[columns[i]];
      auto value = model::ConvertToColumnType(insert.rows[r][i], column.type);
      if (!value.ok()) {
        ctx.FailAt(ctx.Relocate(node, at.line, at.column), path,
                   "column '" + column.name + "': " + value.error().message);
        return std::nullopt;
      }
      row[columns[i]] = value.value();
    }
    // Every row needs its time index and every NOT NULL column (GreptimeDB refuses the write).
    for (size_t c = 0; c < schema.columns.size(); ++c) {
      const model::Column& column = schema.columns[c];
      if (!row[c].is_null() || (column.nullable && c != schema.time_index)) continue;
      ctx.FailAt(ctx.Relocate(node, at.line, at.column), path,
                 "column '" + column.name + "' " +
                     (c == schema.time_index ? "is the time index" : "is NOT NULL") +
                     " and cannot be NULL");
      return std::nullopt;
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

// ADMIN migrate_region(...): the region must be one of the scenario's table (GreptimeDB's full
// region id), the peers two different datanodes of the cluster.
std::optional<model::MigrateRegionOp> MigrateOp(const model::sql::AdminMigrateRegion& admin,
                                                uint32_t frontend, const YAML::Node& node,
                                                LoadContext& ctx, const Scenario& s,
                                                const std::string& path) {
  const sim::SourceLocation at =
      ctx.Relocate(node, admin.region_location.line, admin.region_location.column);
  const model::RegionId region{admin.region_id};
  if (region.table_id() != s.table_id() || region.region_number().value >= (1u << 30)) {
    ctx.FailAt(at, path,
               "migrate_region: region id " + std::to_string(admin.region_id) +
                   " is not a region of table " + s.table.schema.name + " (table id " +
                   std::to_string(s.table_id().value) + "; a region id is table id << 32 | " +
                   "region number, e.g. " +
                   model::RegionId::Of(s.table_id(), model::RegionNumber{1}).ToString() + ")");
    return std::nullopt;
  }
  for (uint64_t peer : {admin.from_peer, admin.to_peer}) {
    if (peer == 0 || peer > s.datanode_count) {
      ctx.FailAt(at, path,
                 "migrate_region: peer " + std::to_string(peer) + " is not a datanode (1.." +
                     std::to_string(s.datanode_count) + ")");
      return std::nullopt;
    }
  }
  if (admin.from_peer == admin.to_peer) {
    ctx.FailAt(at, path, "migrate_region: from_peer and to_peer are the same datanode");
    return std::nullopt;
  }
  const uint64_t secs = admin.timeout_secs.value_or(10);
  if (secs == 0 || secs > 3600) {
    ctx.FailAt(at, path, "migrate_region: timeout must be 1..3600 seconds");
    return std::nullopt;
  }
  return model::MigrateRegionOp{region, model::NodeId{static_cast<uint32_t>(admin.from_peer)},
                                model::NodeId{static_cast<uint32_t>(admin.to_peer)},
                                static_cast<int64_t>(secs) * 1000, frontend};
}

}  // namespace

// One SQL text -> one op per statement, appended to `out` at `at_ms`.
void ReadSql(const YAML::Node& node, uint32_t frontend, model::WritePath write_path, int64_t at_ms,
             LoadContext& ctx, Scenario& s, const std::string& path,
             std::vector<ScriptedStep>& out) {
  const std::string text = ReadString(node, ctx, path);
  if (ctx.failed()) return;
  auto statements = model::sql::ParseStatements(text, ctx.file());
  if (!statements.ok()) {
    const sim::SourceLocation& at = statements.error().location;
    ctx.FailAt(ctx.Relocate(node, at.line, at.column), path, statements.error().message);
    return;
  }
  for (const model::sql::Statement& st : statements.value()) {
    const sim::SourceLocation where = ctx.Relocate(node, st.location.line, st.location.column);
    auto table_ok = [&](const std::string& table) {
      if (table == s.table.schema.name) return true;
      ctx.FailAt(
          where, path,
          "unknown table '" + table + "'; the scenario's table is '" + s.table.schema.name + "'");
      return false;
    };
    if (write_path != model::WritePath::kRow &&
        !std::holds_alternative<model::sql::Insert>(st.body)) {
      ctx.FailAt(
          where, path,
          std::string(model::WritePathName(write_path)) + " applies to INSERT statements only");
      return;
    }
    if (const auto* insert = std::get_if<model::sql::Insert>(&st.body)) {
      if (!table_ok(insert->table)) return;
      auto rows = InsertRows(*insert, node, ctx, s, path);
      if (!rows) return;
      out.push_back(MakeStep(
          at_ms, model::InsertOp{frontend, s.table_id(), std::move(*rows), write_path}, where));
    } else if (const auto* select = std::get_if<model::sql::Select>(&st.body)) {
      if (!table_ok(select->table)) return;
      if (select->where) {
        if (auto problem = WhereProblem(*select->where, s.table.schema)) {
          ctx.FailAt(where, path, *problem);
          return;
        }
      }
      out.push_back(MakeStep(
          at_ms, model::QueryOp{frontend, s.table_id(), select->count_star, select->where, st.text},
          where));
    } else if (const auto* alter = std::get_if<model::sql::AlterRepartition>(&st.body)) {
      if (!table_ok(alter->table)) return;
      out.push_back(
          MakeStep(at_ms, model::RepartitionOp{frontend, s.table_id(), *alter, st.text}, where));
    } else if (const auto* admin = std::get_if<model::sql::AdminMigrateRegion>(&st.body)) {
      if (auto op = MigrateOp(*admin, frontend, node, ctx, s, path)) {
        out.push_back(MakeStep(at_ms, std::move(*op), where));
      }
      if (ctx.failed()) return;
    } else {
      ctx.FailAt(where, path, "CREATE TABLE belongs in the scenario's 'table' key");
      return;
    }
  }
}

}  // namespace repartsim::scenario
