// The statements that run on the cluster: CREATE TABLE, INSERT, SELECT and ALTER TABLE
// (repartition), each scheduled through the first frontend and waited for as a client waits.
#include "checker/console/session_impl.h"
#include "checker/scenario/sql_checks.h"
#include "model/meta/table_metadata.h"
#include "model/partition/rule.h"
#include "model/protocol/rules.h"
#include "model/sql/repartition_planner.h"
#include "sim/assert.h"

namespace repartsim::console {

namespace {

Answer NoAnswer(std::string_view what, uint64_t steps_max) {
  return Answer::Error(StatusCode::kDeadlineExceeded, std::string(what) + ": no answer within " +
                                                          std::to_string(steps_max) +
                                                          " steps of the simulated cluster");
}

Answer TableNotFound(const std::string& name, std::string_view prefix = "") {
  return Answer::Error(StatusCode::kTableNotFound,
                       std::string(prefix) + "Table not found: " + model::sql::FullTableName(name));
}

}  // namespace

model::TableSchema Session::Impl::SchemaOf(model::TableId table) const {
  std::optional<model::TableInfo> info = model::ReadTableInfo(cluster_.metasrv().kv(), table);
  REPARTSIM_ASSERT_MSG(info.has_value(), "a table the console created has no table info");
  return info->schema;
}

Answer Session::Impl::Execute(const model::sql::Statement& statement) {
  if (const auto* create = std::get_if<model::sql::CreateTable>(&statement.body)) {
    return CreateTable(*create);
  }
  if (const auto* insert = std::get_if<model::sql::Insert>(&statement.body)) return Insert(*insert);
  if (const auto* select = std::get_if<model::sql::Select>(&statement.body)) {
    return Select(*select, statement.text);
  }
  if (const auto* alter = std::get_if<model::sql::AlterRepartition>(&statement.body)) {
    return Alter(*alter, statement.text);
  }
  if (const auto* admin = std::get_if<model::sql::AdminMigrateRegion>(&statement.body)) {
    return Migrate(*admin, statement.text);
  }
  if (const auto* function = std::get_if<model::sql::AdminTableFunction>(&statement.body)) {
    return TableFunction(*function, statement.text);
  }
  REPARTSIM_UNREACHABLE();
}

Answer Session::Impl::CreateTable(const model::sql::CreateTable& create) {
  const std::string& name = create.schema.name;
  if (!create.physical_table.empty()) {
    return Answer::Error(StatusCode::kUnsupported,
                         "Not supported: logical tables of the metric engine in the console");
  }
  if (FindTable(name) != nullptr) {
    if (create.if_not_exists) return Answer::Affected(0);
    return Answer::Error(StatusCode::kTableAlreadyExists,
                         "Table already exists: `" + model::sql::FullTableName(name) + "`");
  }
  if (!create.rule.exprs.empty()) {
    const model::CheckMode mode = protocol_.On(model::Rule::kExactRuleChecker)
                                      ? model::CheckMode::kExact
                                      : model::CheckMode::kGreptime;
    if (auto error = model::CheckRule(create.rule, create.schema, mode)) {
      return Answer::Error(StatusCode::kInvalidArguments, *error);
    }
  }
  const model::TableId id{next_table_id_};
  Schedule(cluster_.PlanCreateTable(id, create.schema, create.rule));
  if (!RunScheduledOps()) return NoAnswer("CREATE TABLE", config_.statement_steps_max);
  if (!RunUntil([&] { return !cluster_.frontend(0).HasSetupDdl(); })) {
    return NoAnswer("CREATE TABLE", config_.statement_steps_max);
  }
  if (!model::ReadTableRoute(cluster_.metasrv().kv(), id)) {
    return Answer::Error(StatusCode::kUnexpected,
                         "CREATE TABLE " + model::sql::FullTableName(name) +
                             " did not complete: the frontend or the metasrv failed meanwhile");
  }
  ++next_table_id_;
  tables_.emplace(name, id);
  created_ms_[id] = sim_.now().ms;
  return Answer::Affected(0);
}

Answer Session::Impl::Insert(const model::sql::Insert& insert) {
  const model::TableId* table = FindTable(insert.table);
  if (table == nullptr) return TableNotFound(insert.table);
  const model::TableSchema schema = SchemaOf(*table);
  for (const std::string& column : insert.columns) {
    if (schema.FindColumn(column)) continue;
    return Answer::Error(StatusCode::kTableColumnNotFound,
                         "Column " + column + " not exists in table " + insert.table);
  }
  auto rows = scenario::InsertRows(insert, schema);
  if (!rows.ok()) return Answer::Error(StatusCode::kInvalidArguments, rows.error().message);
  const size_t count = rows.value().size();
  const uint64_t id = cluster_.history().writes.size() + 1;
  Schedule(model::InsertOp{0, *table, std::move(rows).value(), model::WritePath::kRow});
  const auto& writes = cluster_.history().writes;
  if (!RunUntil([&] {
        return writes.size() >= id && writes[id - 1].status != model::WriteStatus::kPending;
      })) {
    return NoAnswer("INSERT", config_.statement_steps_max);
  }
  const model::WriteRecord& w = writes[id - 1];
  switch (w.status) {
    case model::WriteStatus::kAcked:
      return Answer::Affected(count);
    case model::WriteStatus::kUnknown:
      return Answer::Error(StatusCode::kDeadlineExceeded, w.error.str());
    default:
      return Answer::Error(CodeOfModelError(w.error.str(), StatusCode::kUnexpected), w.error.str());
  }
}

Answer Session::Impl::Select(const model::sql::Select& select, const std::string& sql) {
  if (select.table == kPartitionsTable) return Partitions(select);
  const model::TableId* table = FindTable(select.table);
  if (table == nullptr) return TableNotFound(select.table, "Failed to plan SQL: ");
  const model::TableSchema schema = SchemaOf(*table);
  if (auto unknown = UnknownField(select, schema)) return *unknown;
  if (select.where) {
    if (auto problem = scenario::WhereProblem(*select.where, schema)) {
      return Answer::Error(StatusCode::kUnsupported, "Not supported: " + *problem);
    }
  }
  auto& queries = cluster_.history().queries;
  const uint64_t index = queries.size();
  Schedule(model::QueryOp{0, *table, select.count_star, select.where, sql});
  if (!RunUntil([&] {
        return queries.size() > index && queries[index].status != model::QueryStatus::kPending;
      })) {
    return NoAnswer("SELECT", config_.statement_steps_max);
  }
  const model::QueryRecord& q = queries[index];
  if (q.status == model::QueryStatus::kError) {
    return Answer::Error(CodeOfModelError(q.error, StatusCode::kUnexpected), q.error);
  }
  if (select.count_star) return Answer::Table({"count(*)"}, {{std::to_string(q.count)}});
  return RowsAnswer(schema, q.rows, select);
}

Answer Session::Impl::Alter(const model::sql::AlterRepartition& alter, const std::string& sql) {
  const model::TableId* table = FindTable(alter.table);
  if (table == nullptr) return TableNotFound(alter.table);
  auto& ddls = cluster_.history().ddls;
  const size_t index = ddls.size();
  Schedule(model::RepartitionOp{0, *table, alter, sql});
  // WITH (WAIT = false) answers once the procedure is submitted, with its id.
  if (!RunUntil([&] {
        if (ddls.size() <= index) return false;
        const model::DdlRecord& d = ddls[index];
        return d.status != model::DdlStatus::kPending || (!alter.wait && !d.procedures.empty());
      })) {
    return NoAnswer("ALTER TABLE", config_.statement_steps_max);
  }
  const model::DdlRecord& d = ddls[index];
  switch (d.status) {
    case model::DdlStatus::kPending:
      return Answer::Table({"Procedure ID"}, {{std::to_string(d.procedures.back())}});
    case model::DdlStatus::kDone:
      return Answer::Affected(0);
    case model::DdlStatus::kUnknown:
      return Answer::Error(StatusCode::kDeadlineExceeded, d.error);
    case model::DdlStatus::kFailed:
      return Answer::Error(CodeOfModelError(d.error, StatusCode::kUnexpected), d.error);
    case model::DdlStatus::kRejected:
      return Answer::Error(CodeOfModelError(d.error, StatusCode::kInvalidArguments), d.error);
  }
  REPARTSIM_UNREACHABLE();
}

}  // namespace repartsim::console
