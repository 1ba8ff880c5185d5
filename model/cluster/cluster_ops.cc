// The op queue of a Cluster: running a due client statement or fault action, and the client
// statements themselves (INSERT and SELECT through a frontend, CREATE TABLE and the repartition
// DDL submitted to the metasrv) with their History records, including the outcome of each DDL.
// Fault actions are in cluster_faults.cc; cluster.cc holds the event loop.
#include <algorithm>
#include <memory>

#include "model/cluster/cluster.h"
#include "model/ddl/create_table_procedure.h"
#include "model/frontend/ddl_validation.h"
#include "model/meta/table_metadata.h"
#include "sim/assert.h"

namespace repartsim::model {

namespace {

// Appends the History record of a client statement issued through `fe` now; when `fe` is down
// the statement fails at once ("frontend unavailable") and the caller sets its status.
// `retired`: the records dropped from the front of `records` (History::retired_queries).
template <class Records>
typename Records::value_type& BeginRecord(Records& records, const Frontend& fe, TableId table,
                                          const sim::StepContext& step, uint64_t retired = 0) {
  typename Records::value_type& record = records.emplace_back();
  record.id = retired + records.size();
  record.frontend = fe.id();
  record.table = table;
  record.start_step = step.step;
  record.start = step.now;
  if (!fe.is_up()) {
    record.error = "frontend unavailable";
    record.end_step = step.step;
    record.end = step.now;
  }
  return record;
}

}  // namespace

void Cluster::Schedule(sim::SimTime at, ScheduledOp op) { ops_.Push(at, std::move(op)); }

void Cluster::ScheduleScriptOp(sim::SimTime at, ScheduledOp op) {
  const bool statement = std::holds_alternative<ClientStatement>(op);
  const uint64_t seq = ops_.Push(at, std::move(op));
  if (statement) script_seqs_.insert(seq);
}

bool Cluster::CreateTableInProgress() const {
  // The client's CREATE TABLE call is still outstanding.
  if (frontends_[0].HasSetupDdl()) return true;
  // The call broke (a crash of either end): the client waits while the procedure may still
  // run, that is while it runs or, with the metasrv down or recovering, its records survive
  // without a commit. There is one CREATE TABLE per scenario.
  if (!metasrv_.is_up() || !metasrv_.recovered()) {
    for (const ProcedureRecord& record : metasrv_.procedures().store().Latest()) {
      if (record.type == CreateTableProcedure::kType && !record.parent.valid() &&
          record.kind != RecordKind::kCommit) {
        return true;
      }
    }
    return false;
  }
  for (const auto& [id, slot] : metasrv_.procedures().slots()) {
    if (slot.body.type() == CreateTableProcedure::kType && !slot.parent.valid() &&
        MetaProcedureManager::IsActive(slot.status)) {
      return true;
    }
  }
  return false;
}

void Cluster::MaybeReleaseScript(sim::StepContext& step) {
  if (waiting_create_.empty() || CreateTableInProgress()) return;
  step.Log(sim::kNoNode, "op.release_script", "count=" + std::to_string(waiting_create_.size()));
  int64_t offset_ms = 10;
  for (ScheduledOp& op : waiting_create_) {
    ops_.Push(step.now + sim::Ms(offset_ms), std::move(op));
    offset_ms += 10;
  }
  waiting_create_.clear();
  REPARTSIM_ASSERT(waiting_create_.empty());
}

CreateTableOp Cluster::PlanCreateTable(TableId table, const TableSchema& schema,
                                       const PartitionRule& rule,
                                       const std::vector<uint32_t>& placement) const {
  TableInfo info;
  info.table_id = table;
  info.name = schema.name;
  info.schema = schema;
  for (const std::string& column : rule.columns) {
    std::optional<size_t> index = schema.FindColumn(column);
    REPARTSIM_ASSERT(index.has_value());
    info.partition_key_indices.push_back(*index);
  }
  std::vector<RegionRoute> routes;
  size_t count = std::max<size_t>(1, rule.exprs.size());
  for (size_t i = 0; i < count; ++i) {
    RegionRoute route;
    route.region_id = RegionId::Of(table, RegionNumber{static_cast<uint32_t>(i)});
    if (i < rule.exprs.size()) route.partition_expr = rule.exprs[i];
    uint32_t dn = i < placement.size() ? placement[i] : static_cast<uint32_t>(i);
    route.leader = datanode_id(dn % config_.datanode_count);
    routes.push_back(std::move(route));
  }
  return CreateTableOp{std::move(info), TableRoute::New(std::move(routes))};
}

void Cluster::RunScheduledOp(size_t index, sim::StepContext& step) {
  auto entry = ops_.PopAt(index);
  ++ops_taken_;
  last_op_seq_ = entry.seq;
  const bool scripted = script_seqs_.erase(entry.seq) != 0;
  if (scripted && (CreateTableInProgress() || !waiting_create_.empty())) {
    // The scenario's client has not got the answer to its CREATE TABLE yet.
    step.Log(sim::kNoNode, "op.wait_create", ScheduledOpName(entry.payload));
    waiting_create_.push_back(std::move(entry.payload));
    return;
  }
  ExecuteOp(entry.payload, step);
}

void Cluster::ExecuteOp(ScheduledOp& op, sim::StepContext& step) {
  auto* statement = std::get_if<ClientStatement>(&op);
  // INSERT and SELECT log their `op` line once their History record exists (it has the id).
  if (statement == nullptr || (!std::holds_alternative<InsertOp>(*statement) &&
                               !std::holds_alternative<QueryOp>(*statement))) {
    step.Log(sim::kNoNode, "op", ScheduledOpName(op));
  }
  if (statement != nullptr) return RunStatement(*statement, step);
  RunFaultAction(std::get<FaultAction>(op), step);
}

void Cluster::RunStatement(ClientStatement& op, sim::StepContext& step) {
  if (auto* insert = std::get_if<InsertOp>(&op)) {
    Frontend& fe = frontends_[insert->frontend_index];
    WriteRecord& record = BeginRecord(history_.writes, fe, insert->table, step);
    record.rows = insert->rows;
    record.path = insert->path;
    {
      sim::Detail d;
      d.Word("insert").Add("id", record.id).Add("fe", NodeName(fe.id()));
      d.Add("table", insert->table.value).Add("rows", uint64_t{insert->rows.size()});
      if (insert->path != WritePath::kRow) d.Add(WritePathName(insert->path), 1u);
      std::string values;
      for (const Row& row : insert->rows) {
        values += values.empty() ? "(" : ", (";
        for (size_t i = 0; i < row.size(); ++i) values += (i ? ", " : "") + row[i].ToSql();
        values += ')';
        if (values.size() > 200) break;  // the detail is cut at its capacity anyway
      }
      d.AddQuoted("values", values);
      step.Log(sim::kNoNode, "op", d.view());
    }
    if (!fe.is_up()) {
      record.status = WriteStatus::kRejected;
      return;
    }
    NodeContext ctx(fe.id(), step, protocol_, history_);
    const uint64_t id = record.id;  // `record` may move once the frontend records outcomes
    fe.StartInsert(id, insert->table, std::move(insert->rows), insert->path, ctx);
    Flush(ctx, step);
    return;
  }
  if (auto* query = std::get_if<QueryOp>(&op)) {
    Frontend& fe = frontends_[query->frontend_index];
    QueryRecord& record =
        BeginRecord(history_.queries, fe, query->table, step, history_.retired_queries);
    record.count_star = query->count_star;
    if (query->where) record.where = std::make_shared<const Predicate>(*query->where);
    record.sql = query->sql;
    {
      sim::Detail d;
      d.Word("query").Add("id", record.id).Add("fe", NodeName(fe.id()));
      d.Add("table", query->table.value).AddQuoted("sql", query->sql);
      step.Log(sim::kNoNode, "op", d.view());
    }
    if (!fe.is_up()) {
      record.status = QueryStatus::kError;
      return;
    }
    const uint64_t id = record.id;
    NodeContext ctx(fe.id(), step, protocol_, history_);
    fe.StartQuery(id, query->table, query->where, ctx);
    Flush(ctx, step);
    return;
  }
  if (auto* create = std::get_if<CreateTableOp>(&op)) {
    // The scenario's setup statement, through the first frontend; it has no History record.
    Frontend& fe = frontends_[0];
    if (!fe.is_up()) return;
    NodeContext ctx(fe.id(), step, protocol_, history_);
    fe.StartCreateTable(0, CreateTableTask{create->info, create->route}, ctx);
    Flush(ctx, step);
    return;
  }
  if (auto* repartition = std::get_if<RepartitionOp>(&op)) {
    return StartRepartition(*repartition, step);
  }
  REPARTSIM_UNREACHABLE();
}

void Cluster::StartRepartition(const RepartitionOp& op, sim::StepContext& step) {
  Frontend& fe = frontends_[op.frontend_index];
  DdlRecord& record = history_.ddls.emplace_back();
  record.id = history_.ddls.size();
  record.frontend = fe.id();
  record.sql = op.sql;
  record.start_step = step.step;
  record.start = step.now;
  if (!fe.is_up()) {
    record.status = DdlStatus::kRejected;
    record.error = "unavailable";
    record.end_step = step.step;
    record.end = step.now;
    step.Log(fe.id().value, "fe.ddl_rejected",
             "repartition table=" + op.table.ToString() +
                 " status=rejected id=" + std::to_string(record.id) + " error: unavailable");
    return;
  }
  NodeContext ctx(fe.id(), step, protocol_, history_);
  fe.StartRepartition(record.id, op.table, op.alter, ctx, op.validate);
  Flush(ctx, step);
}

}  // namespace repartsim::model
