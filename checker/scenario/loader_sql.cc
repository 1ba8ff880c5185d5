// SQL steps: one SQL text -> one scripted op per statement (INSERT rows converted to the
// column types in schema order, SELECT with its WHERE columns checked, ALTER TABLE ...
// REPARTITION); SQL errors are re-located into the YAML file.
#include "checker/scenario/loader_internal.h"
#include "checker/scenario/sql_checks.h"
#include "model/partition/schema.h"
#include "model/sql/parser.h"

namespace repartsim::scenario {

namespace {

// The rows of an INSERT in schema order (sql_checks.h); a row's error is located at the row.
std::optional<std::vector<model::Row>> RowsOf(const model::sql::Insert& insert,
                                              const YAML::Node& node, LoadContext& ctx,
                                              const Scenario& s, const std::string& path) {
  auto rows = InsertRows(insert, s.table.schema);
  if (rows.ok()) return std::move(rows).value();
  const sim::SourceLocation& at = rows.error().location;
  if (at.line == 0) {
    ctx.Fail(node, path, rows.error().message);
  } else {
    ctx.FailAt(ctx.Relocate(node, at.line, at.column), path, rows.error().message);
  }
  return std::nullopt;
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
      auto rows = RowsOf(*insert, node, ctx, s, path);
      if (!rows) return;
      out.push_back(MakeStep(
          at_ms, model::InsertOp{frontend, s.table_id(), std::move(*rows), write_path}, where));
    } else if (const auto* select = std::get_if<model::sql::Select>(&st.body)) {
      if (!table_ok(select->table)) return;
      if (!select->columns.empty()) {
        // A query's record keeps whole rows (the oracle compares them): select * or count(*).
        ctx.FailAt(where, path,
                   "a SELECT column list is for the console (repartsim sql); a scenario selects "
                   "* or count(*)");
        return;
      }
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
    } else if (std::holds_alternative<model::sql::AdminTableFunction>(st.body)) {
      ctx.FailAt(where, path,
                 "ADMIN flush_table and compact_table are for the console (repartsim sql); a "
                 "scenario flushes and compacts with flush: and compact: steps");
      return;
    } else {
      ctx.FailAt(where, path, "CREATE TABLE belongs in the scenario's 'table' key");
      return;
    }
  }
}

}  // namespace repartsim::scenario
