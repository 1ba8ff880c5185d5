// Internal to checker/console: the state behind a Session (console_session.h) and the
// statement handlers its .cc files share (session.cc: setup, stepping, refusals;
// statements.cc: CREATE TABLE, INSERT, SELECT, ALTER TABLE; show.cc: SHOW CREATE TABLE and
// information_schema.partitions; admin.cc: the ADMIN functions).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "checker/console/console_session.h"
#include "model/cluster/cluster.h"
#include "model/protocol/protocol.h"
#include "model/sql/lexer.h"
#include "model/sql/statement.h"
#include "sim/chooser.h"
#include "sim/crash_points.h"
#include "sim/simulation.h"
#include "sim/trace.h"

namespace repartsim::console {

// The console's tables get ids from this one up (GreptimeDB's first user table id).
inline constexpr uint32_t kFirstTableId = 1024;

class Session::Impl {
 public:
  Impl(const SessionConfig& config, const scenario::Scenario& s, model::Protocol protocol);

  // ---- stepping (session.cc) ---------------------------------------------------------------
  // Schedules `op` at the current virtual time.
  void Schedule(model::ScheduledOp op);
  // Steps until done() holds; false when config_.statement_steps_max steps did not get there.
  template <class Done>
  bool RunUntil(Done done) {
    const uint64_t start = sim_.steps();
    while (!done()) {
      if (sim_.steps() - start >= config_.statement_steps_max || !StepOnce()) return false;
    }
    return true;
  }
  // Runs the ops scheduled so far (the queue is empty afterwards); false at the step limit.
  bool RunScheduledOps();
  std::optional<StatementResult> Run(std::string_view text, const sim::SourceLocation& at);
  // `SHOW CREATE TABLE name` from the tokens of Run's text (t[first] is SHOW); other SHOW
  // statements are refused as unsupported.
  StatementResult Show(const std::vector<model::sql::Token>& t, size_t first,
                       const sim::SourceLocation& at);

  // ---- statements (statements.cc) ------------------------------------------------------------
  Answer Execute(const model::sql::Statement& statement);
  Answer CreateTable(const model::sql::CreateTable& create);
  Answer Insert(const model::sql::Insert& insert);
  Answer Select(const model::sql::Select& select, const std::string& sql);
  Answer Alter(const model::sql::AlterRepartition& alter, const std::string& sql);
  // ---- ADMIN (admin.cc); `text` is the statement's, for the answer's header -------------------
  Answer Migrate(const model::sql::AdminMigrateRegion& admin, const std::string& text);
  Answer TableFunction(const model::sql::AdminTableFunction& function, const std::string& text);

  // ---- metadata (show.cc) ---------------------------------------------------------------------
  // SHOW CREATE TABLE `name`, rendered as GreptimeDB's show_create_table.rs does.
  Answer ShowCreateTable(const std::string& name);
  // SELECT ... FROM information_schema.partitions: one row per partition of each table.
  Answer Partitions(const model::sql::Select& select);

  // The table `name` names, or nullptr.
  const model::TableId* FindTable(const std::string& name) const;
  // The schema of a table the console created, as the metasrv holds it.
  model::TableSchema SchemaOf(model::TableId table) const;

  SessionConfig config_;
  scenario::Scenario scenario_;
  model::Protocol protocol_;
  model::Cluster cluster_;
  sim::Trace trace_;
  sim::CrashPlan plan_;
  sim::CrashPointStats stats_;
  sim::RandomChooser chooser_;
  sim::Simulation<model::Cluster> sim_;
  std::vector<bool> down_;                        // per node: down after the last step
  std::map<std::string, model::TableId> tables_;  // by name, as CREATE TABLE made them
  std::map<model::TableId, int64_t> created_ms_;  // virtual time each table was created
  uint32_t next_table_id_ = kFirstTableId;

 private:
  // One step, then felled nodes are scheduled to restart (faults.restart_after_ms later).
  bool StepOnce();
};

// The one information_schema table the console answers from.
inline constexpr std::string_view kPartitionsTable = "information_schema.partitions";

// The first column `select` names (list, WHERE, ORDER BY) that `schema` lacks, answered as
// DataFusion's planner does ("Failed to plan SQL: No field named x. Valid fields are t.a, ...");
// nullopt when every column is known.
std::optional<Answer> UnknownField(const model::sql::Select& select,
                                   const model::TableSchema& schema);
// The result table of `rows` (in `schema` order) under `select`: sorted by ORDER BY (stable),
// then its column list (every column for `*`).
Answer RowsAnswer(const model::TableSchema& schema, std::vector<model::Row> rows,
                  const model::sql::Select& select);
// A cell of a result table as GreptimeDB prints the value: NULL empty, timestamps
// 1970-01-01T00:00:00.001, floats with a fraction (1.0), strings bare.
std::string CellText(const model::Value& value);
// The status code of a message the model's frontend or procedures produced (their texts are
// GreptimeDB's; the code is told by the text's form: "Not supported: ..." is Unsupported,
// "Table not found: ..." TableNotFound, a region's state RegionNotReady, ...). `fallback` when
// no form matches.
StatusCode CodeOfModelError(std::string_view message, StatusCode fallback);

}  // namespace repartsim::console
