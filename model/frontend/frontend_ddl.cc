// The frontend's DDL path (docs/protocol.md section 4): CREATE TABLE and ALTER TABLE ...
// REPARTITION become DdlSubmit calls to the metasrv, whose DdlReply comes when the procedure
// ends. A repartition is first validated against the frontend's cached table info and route
// (GreptimeDB's StatementExecutor::repartition_table reads them through its caches), filling
// the cache when the table is not cached; after a successful repartition the frontend drops
// its own cached route (the statement waits for the procedure, then invalidates locally).
#include <string>
#include <utility>

#include "model/frontend/ddl_validation.h"
#include "model/frontend/frontend.h"
#include "sim/assert.h"

namespace repartsim::model {

namespace {

const char* DdlStatusWord(DdlStatus status) {
  switch (status) {
    case DdlStatus::kPending:
      return "pending";
    case DdlStatus::kDone:
      return "done";
    case DdlStatus::kFailed:
      return "failed";
    case DdlStatus::kRejected:
      return "rejected";
    case DdlStatus::kUnknown:
      return "unknown";
  }
  REPARTSIM_UNREACHABLE();
}

// The call deadline of a CREATE TABLE (SubmitDdlTaskRequest::default_timeout).
constexpr int64_t kCreateTableTimeoutMs = 60000;

// What the repartition procedure's persistent context needs from the validated statement.
RepartitionTask MakeRepartitionTask(const TableInfo& info, const sql::AlterRepartition& alter,
                                    sql::RepartitionPlan plan) {
  RepartitionTask task;
  task.info = info;
  task.kind = alter.kind;
  task.target_columns = alter.on_columns;
  if (alter.kind == sql::AlterRepartition::Kind::kPartitionOn && !task.target_columns) {
    task.target_columns = std::move(plan.target_columns);
  }
  task.from = std::move(plan.from);
  task.to = std::move(plan.to);
  task.timeout_ms = plan.timeout_ms;
  return task;
}

}  // namespace

void Frontend::StartCreateTable(uint64_t history_id, CreateTableTask task, NodeContext& ctx) {
  REPARTSIM_ASSERT(up_);
  const uint64_t key = NextCorr();
  FrontendDdl& ddl = ddls_[key];
  ddl.history_id = history_id;
  ddl.table = task.info.table_id;
  ddl.create = std::move(task);
  DispatchDdl(key, ctx);
}

void Frontend::StartRepartition(uint64_t history_id, TableId table, sql::AlterRepartition alter,
                                NodeContext& ctx, bool check_rule) {
  REPARTSIM_ASSERT(up_);
  const uint64_t key = NextCorr();
  FrontendDdl& ddl = ddls_[key];
  ddl.history_id = history_id;
  ddl.table = table;
  ddl.alter = std::move(alter);
  ddl.check_rule = check_rule;
  DispatchDdl(key, ctx);
}

void Frontend::DispatchDdl(uint64_t key, NodeContext& ctx) {
  FrontendDdl& ddl = ddls_.at(key);
  REPARTSIM_ASSERT(!ddl.submitted);
  if (!ddl.create.has_value()) {
    REPARTSIM_ASSERT(ddl.alter.has_value());
    const CachedTable* cached = routes_.Find(ddl.table);
    if (cached == nullptr) {
      RequestRoute(ddl.table, ctx);
      return;
    }
    REPARTSIM_ASSERT(cached->info.table_id == ddl.table);
    sim::Result<sql::RepartitionPlan> plan = ValidateRepartition(
        cached->info, cached->route, *ddl.alter, config_.gc_enabled, ctx.protocol, ddl.check_rule);
    if (!plan.ok()) {
      return FinishDdl(key, DdlStatus::kRejected, 0, plan.error().message, ctx);
    }
    ddl.task = MakeRepartitionTask(cached->info, *ddl.alter, std::move(plan.value()));
  }
  ddl.submitted = true;
  SubmitDdl(key, ctx);
}

void Frontend::SubmitDdl(uint64_t key, NodeContext& ctx) {
  FrontendDdl& ddl = ddls_.at(key);
  REPARTSIM_ASSERT(ddl.submitted && ddl.attempts < config_.ddl_submit_attempts);
  DdlSubmit submit;
  submit.corr = key;
  submit.ddl = ddl.history_id;
  if (ddl.create.has_value()) {
    submit.task = *ddl.create;
  } else {
    REPARTSIM_ASSERT(ddl.task.has_value());
    submit.task = *ddl.task;
  }
  ++ddl.attempts;
  ddl.deadline = ctx.now() + sim::Ms(ddl.task ? ddl.task->timeout_ms : kCreateTableTimeoutMs);
  ctx.Send(metasrv_, std::move(submit));
}

std::optional<sim::SimTime> Frontend::NextDdlDeadline() const {
  std::optional<sim::SimTime> next;
  for (const auto& [key, ddl] : ddls_) {
    if (ddl.submitted && (!next || ddl.deadline < *next)) next = ddl.deadline;
  }
  return next;
}

void Frontend::ExpireDdls(NodeContext& ctx) {
  std::vector<uint64_t> expired;
  for (const auto& [key, ddl] : ddls_) {
    if (ddl.submitted && ddl.deadline <= ctx.now()) expired.push_back(key);
  }
  for (uint64_t key : expired) {
    if (ddls_.at(key).attempts >= config_.ddl_submit_attempts) {
      FinishDdl(key, DdlStatus::kUnknown, 0,
                "deadline exceeded: the DDL call timed out " +
                    std::to_string(config_.ddl_submit_attempts) + " times",
                ctx);
      continue;
    }
    // The same task as a new call: a late answer to the old one is ignored.
    auto node = ddls_.extract(key);
    const uint64_t call = NextCorr();
    node.key() = call;
    ddls_.insert(std::move(node));
    const FrontendDdl& ddl = ddls_.at(call);
    ctx.Log("fe.ddl_resubmit", std::string(ddl.create ? "create_table" : "repartition") +
                                   " table=" + ddl.table.ToString() + " attempt=" +
                                   std::to_string(ddl.attempts + 1) + " after a call deadline");
    SubmitDdl(call, ctx);
  }
}

bool Frontend::HasSetupDdl() const {
  for (const auto& [key, ddl] : ddls_) {
    if (ddl.history_id == 0) return true;
  }
  return false;
}

std::vector<uint64_t> Frontend::DdlsWaitingForRoute(TableId table) const {
  std::vector<uint64_t> waiting;
  for (const auto& [key, ddl] : ddls_) {
    if (!ddl.submitted && ddl.table == table) waiting.push_back(key);
  }
  return waiting;
}

void Frontend::OnDdlRoute(TableId table, bool found, NodeContext& ctx) {
  for (uint64_t key : DdlsWaitingForRoute(table)) {
    if (!found) {
      FinishDdl(key, DdlStatus::kRejected, 0,
                "Table not found: " + sql::FullTableName(ddls_.at(key).alter->table), ctx);
      continue;
    }
    DispatchDdl(key, ctx);
  }
}

void Frontend::FailWaitingDdls(TableId table, const std::string& error, NodeContext& ctx) {
  for (uint64_t key : DdlsWaitingForRoute(table)) {
    FinishDdl(key, DdlStatus::kRejected, 0, error, ctx);
  }
}

void Frontend::OnDdlReply(const DdlReply& reply, NodeContext& ctx) {
  auto it = ddls_.find(reply.corr);
  if (it == ddls_.end() || !it->second.submitted) return;  // after the call gave up
  switch (reply.outcome) {
    case DdlOutcome::kDone:
      // WAIT (the default): the statement invalidates its own cached route after completion.
      if (it->second.alter.has_value()) routes_.Drop(it->second.table);
      return FinishDdl(reply.corr, DdlStatus::kDone, reply.procedure, "", ctx);
    case DdlOutcome::kFailed:
      return FinishDdl(reply.corr, DdlStatus::kFailed, reply.procedure, reply.error, ctx);
    case DdlOutcome::kUnavailable:
      return FinishDdl(reply.corr, DdlStatus::kRejected, 0, "unavailable: " + reply.error, ctx);
  }
  REPARTSIM_UNREACHABLE();
}

void Frontend::FinishDdl(uint64_t key, DdlStatus status, uint64_t procedure, std::string error,
                         NodeContext& ctx) {
  auto it = ddls_.find(key);
  REPARTSIM_ASSERT(it != ddls_.end());
  const FrontendDdl& ddl = it->second;
  std::string detail = std::string(ddl.create.has_value() ? "create_table" : "repartition") +
                       " table=" + ddl.table.ToString() + " status=" + DdlStatusWord(status);
  if (ddl.history_id != 0) detail += " id=" + std::to_string(ddl.history_id);
  if (procedure != 0) detail += " procedure=" + std::to_string(procedure);
  if (!error.empty()) detail += " error: " + error;
  ctx.Log(status == DdlStatus::kRejected ? "fe.ddl_rejected" : "fe.ddl_done", detail);
  if (ddl.history_id != 0) {
    DdlRecord& record = ctx.history.Ddl(ddl.history_id);
    REPARTSIM_ASSERT(record.status == DdlStatus::kPending);
    record.status = status;
    record.error = std::move(error);
    record.end_step = ctx.step.step;
    record.end = ctx.now();
  }
  ddls_.erase(it);
}

void Frontend::OnMetasrvLost(NodeContext& ctx) {
  std::vector<uint64_t> broken;
  for (const auto& [key, ddl] : ddls_) {
    if (ddl.submitted) broken.push_back(key);
  }
  for (uint64_t key : broken) {
    FinishDdl(key, DdlStatus::kUnknown, 0, "the call broke: the metasrv went down", ctx);
  }
}

void Frontend::HashDdls(sim::Hasher& h) const {
  h.Add(static_cast<uint64_t>(ddls_.size()));
  for (const auto& [key, ddl] : ddls_) {
    h.Add(key).Add(ddl.history_id).Add(ddl.table.value).Add(ddl.alter.has_value());
    h.Add(ddl.create.has_value()).Add(ddl.submitted).Add(ddl.deadline.ms).Add(ddl.attempts);
    h.Add(ddl.task.has_value());
    if (ddl.task) HashRepartitionTask(h, *ddl.task);
  }
}

}  // namespace repartsim::model
