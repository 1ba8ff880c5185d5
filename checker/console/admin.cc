// The ADMIN functions: flush_table and compact_table (every region of the table, on its
// leader, answering 0) and migrate_region (checked as GreptimeDB's region migration manager
// checks a task, then submitted to the metasrv; it answers the procedure id without waiting).
// Each answers a one-cell table headed by the call, as DataFusion names the column.
#include "checker/console/session_impl.h"
#include "model/meta/table_metadata.h"
#include "model/migration/region_migration_procedure.h"
#include "model/sql/lexer.h"
#include "sim/assert.h"

namespace repartsim::console {

namespace {

// "ADMIN name(arg, arg)" from the statement's text: the function as written, string arguments
// quoted, the arguments joined by ", " (sqlparser's Display of the call).
std::string AdminHeader(const std::string& text) {
  auto tokens = model::sql::Tokenize(text, "");
  REPARTSIM_ASSERT(tokens.ok());  // the statement parsed
  std::string header = "ADMIN ";
  for (const model::sql::Token& t : tokens.value()) {
    if (t.kind == model::sql::TokenKind::kEnd || t.IsKeyword("admin") || t.IsSymbol(";")) continue;
    if (t.kind == model::sql::TokenKind::kString) {
      header += model::Value::String(t.text).ToSql();
    } else {
      header += t.text;
    }
    if (t.IsSymbol(",")) header += ' ';
  }
  return header;
}

Answer OneCell(const std::string& text, std::string cell) {
  return Answer::Table({AdminHeader(text)}, {{std::move(cell)}});
}

// 'greptime.public.t' and 'public.t' name t.
std::string BareTableName(const std::string& name) {
  for (std::string_view prefix : {"greptime.public.", "public."}) {
    if (name.size() > prefix.size() &&
        model::sql::EqualsIgnoreCase(std::string_view(name).substr(0, prefix.size()), prefix)) {
      return name.substr(prefix.size());
    }
  }
  return name;
}

}  // namespace

Answer Session::Impl::TableFunction(const model::sql::AdminTableFunction& function,
                                    const std::string& text) {
  const std::string name = BareTableName(function.table);
  const model::TableId* table = FindTable(name);
  if (table == nullptr) {
    return Answer::Error(StatusCode::kTableNotFound,
                         "Table not found: " + model::sql::FullTableName(name));
  }
  std::optional<model::TableRoute> route = model::ReadTableRoute(cluster_.metasrv().kv(), *table);
  REPARTSIM_ASSERT(route.has_value());
  for (const model::RegionRoute& r : route->region_routes) {
    if (!r.leader) continue;
    if (function.kind == model::sql::AdminTableFunction::Kind::kFlushTable) {
      Schedule(model::FlushOp{*r.leader, r.region_id});
    } else {
      Schedule(model::CompactOp{*r.leader, r.region_id});
    }
  }
  if (!RunScheduledOps()) {
    return Answer::Error(StatusCode::kDeadlineExceeded, "ADMIN: no answer from the cluster");
  }
  return OneCell(text, "0");
}

Answer Session::Impl::Migrate(const model::sql::AdminMigrateRegion& admin,
                              const std::string& text) {
  const model::RegionId region{admin.region_id};
  std::optional<model::TableRoute> route =
      model::ReadTableRoute(cluster_.metasrv().kv(), region.table_id());
  const model::RegionRoute* found = nullptr;  // points into `route`, which outlives it
  if (route) {
    for (const model::RegionRoute& r : route->region_routes) {
      if (r.region_id == region) found = &r;
    }
  }
  if (found == nullptr || !found->leader) {
    return Answer::Error(StatusCode::kRegionNotFound, "Region " + region.ToString() + " not found");
  }
  const uint32_t datanodes = cluster_.config().datanode_count;
  for (uint64_t peer : {admin.from_peer, admin.to_peer}) {
    if (peer >= 1 && peer <= datanodes) continue;
    return Answer::Error(StatusCode::kInvalidArguments,
                         "Invalid arguments: peer " + std::to_string(peer) +
                             " is not a datanode (1.." + std::to_string(datanodes) + ")");
  }
  if (admin.from_peer == admin.to_peer) {
    return Answer::Error(StatusCode::kInvalidArguments,
                         "Invalid arguments: the from_peer and the to_peer are the same");
  }
  const uint64_t secs = admin.timeout_secs.value_or(10);
  if (secs == 0 || secs > 3600) {
    return Answer::Error(StatusCode::kInvalidArguments,
                         "Invalid arguments: timeout must be 1..3600 seconds");
  }
  // Migrated already: GreptimeDB submits nothing and the function answers NULL.
  if (found->leader->value == admin.to_peer && !found->is_downgrading()) return OneCell(text, "");
  if (found->leader->value != admin.from_peer) {
    return Answer::Error(StatusCode::kInvalidArguments,
                         "Region's leader peer changed: Region's leader peer(" +
                             std::to_string(found->leader->value) + ") is not the `from_peer`(" +
                             std::to_string(admin.from_peer) + "), region: " + region.ToString());
  }
  const auto& slots = cluster_.metasrv().procedures().slots();
  const model::ProcedureId before = slots.empty() ? model::ProcedureId{} : slots.rbegin()->first;
  Schedule(model::MigrateRegionOp{region, model::NodeId{static_cast<uint32_t>(admin.from_peer)},
                                  model::NodeId{static_cast<uint32_t>(admin.to_peer)},
                                  static_cast<int64_t>(secs) * 1000, 0});
  if (!RunScheduledOps()) {
    return Answer::Error(StatusCode::kDeadlineExceeded, "ADMIN: no answer from the cluster");
  }
  for (auto it = slots.upper_bound(before); it != slots.end(); ++it) {
    if (it->second.body.type() != model::RegionMigrationProcedure::kType) continue;
    return OneCell(text, std::to_string(it->first.value));
  }
  return Answer::Error(StatusCode::kIllegalState,
                       "the metasrv did not take the migration (it is down or recovering, or the "
                       "frontend is down)");
}

}  // namespace repartsim::console
