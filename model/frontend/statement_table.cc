#include "model/frontend/statement_table.h"

#include <utility>

#include "sim/assert.h"

namespace repartsim::model {

namespace {

// Free text as one trace value: double-quoted, '"' and '\\' escaped (docs/trace.md).
std::string Quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c == '\n' ? ' ' : c;
  }
  out += '"';
  return out;
}

}  // namespace

FrontendStatement& StatementTable::Add(StatementKind kind, uint64_t history_id, TableId table) {
  const uint64_t key = Key(kind, history_id);
  REPARTSIM_ASSERT(statements_.count(key) == 0);
  FrontendStatement& s = statements_[key];
  s.key = key;
  s.id = history_id;
  s.kind = kind;
  s.table = table;
  return s;
}

std::vector<uint64_t> StatementTable::WaitingForRoute(TableId table) const {
  std::vector<uint64_t> waiting;
  for (const auto& [key, statement] : statements_) {
    if (statement.table == table && statement.phase == StatementPhase::kWaitingRoute) {
      waiting.push_back(key);
    }
  }
  return waiting;
}

void StatementTable::Track(FrontendStatement& statement, uint64_t corr, SubRequest request) {
  REPARTSIM_ASSERT(corr_owner_.count(corr) == 0);
  corr_owner_[corr] = statement.key;
  statement.outstanding[corr] = std::move(request);
}

FrontendStatement* StatementTable::TakeOwner(uint64_t corr) {
  auto owner = corr_owner_.find(corr);
  if (owner == corr_owner_.end()) return nullptr;  // duplicate or after timeout
  auto it = statements_.find(owner->second);
  corr_owner_.erase(owner);
  REPARTSIM_ASSERT(it != statements_.end());
  REPARTSIM_ASSERT(it->second.outstanding.count(corr) == 1);
  return &it->second;
}

std::optional<sim::SimTime> StatementTable::NextDeadline() const {
  std::optional<sim::SimTime> next;
  for (const auto& [key, statement] : statements_) {
    if (statement.phase != StatementPhase::kInFlight || statement.outstanding.empty()) continue;
    if (!next || statement.deadline < *next) next = statement.deadline;
  }
  return next;
}

std::vector<uint64_t> StatementTable::ExpireRequests(sim::SimTime now) {
  std::vector<uint64_t> expired;
  for (auto& [key, statement] : statements_) {
    if (statement.phase != StatementPhase::kInFlight || statement.outstanding.empty()) continue;
    if (now < statement.deadline) continue;
    for (const auto& [corr, request] : statement.outstanding) corr_owner_.erase(corr);
    statement.unknown_count += static_cast<uint32_t>(statement.outstanding.size());
    statement.outstanding.clear();
    statement.rows.clear();
    statement.replan = false;
    statement.error = "request timed out";
    expired.push_back(key);
  }
  return expired;
}

void StatementTable::MaybeFinish(FrontendStatement& statement, NodeContext& ctx) {
  if (statement.phase != StatementPhase::kInFlight || !statement.outstanding.empty()) return;
  if (statement.replan || !statement.rows.empty()) return;
  Finish(statement, ctx);
  const size_t erased = statements_.erase(statement.key);
  REPARTSIM_ASSERT(erased == 1);
}

void StatementTable::CrashAll(NodeContext& ctx) {
  for (auto& [key, statement] : statements_) {
    statement.unknown_count += static_cast<uint32_t>(statement.outstanding.size()) + 1;
    statement.outstanding.clear();
    statement.rows.clear();
    statement.replan = false;
    statement.phase = StatementPhase::kInFlight;
    statement.error = "frontend crashed";
    Finish(statement, ctx);
  }
  statements_.clear();
  corr_owner_.clear();
}

void StatementTable::Finish(FrontendStatement& statement, NodeContext& ctx) {
  if (statement.kind == StatementKind::kInsert) {
    WriteRecord& record = ctx.history.Write(statement.id);
    if (statement.error_count == 0 && statement.unknown_count == 0) {
      record.status = WriteStatus::kAcked;
    } else if (statement.ok_count == 0 && statement.unknown_count == 0) {
      record.status = WriteStatus::kRejected;
    } else {
      // Timed out, or partial success across datanodes: the rows may or may not be there.
      record.status = WriteStatus::kUnknown;
    }
    record.error = statement.error;
    record.end_step = ctx.step.step;
    record.end = ctx.now();
    ctx.Log("fe.write_done", "id=" + std::to_string(statement.id) + " " +
                                 WriteStatusName(record.status) +
                                 (record.error.empty() ? "" : " error=" + Quoted(record.error)));
    return;
  }
  QueryRecord& record = ctx.history.Query(statement.id);
  record.status = statement.error_count == 0 && statement.unknown_count == 0 ? QueryStatus::kOk
                                                                             : QueryStatus::kError;
  record.error = statement.error;
  record.rows = std::move(statement.result_rows);
  record.regions = statement.scanned;
  record.end_step = ctx.step.step;
  record.end = ctx.now();
  ctx.Log("fe.query_done",
          "id=" + std::to_string(statement.id) +
              (record.status == QueryStatus::kOk ? " rows=" + std::to_string(record.rows.size())
                                                 : " error=" + Quoted(record.error)));
}

void StatementTable::Hash(sim::Hasher& h) const {
  h.Add(static_cast<uint64_t>(statements_.size()));
  for (const auto& [key, s] : statements_) {
    h.Add(key).Add(static_cast<uint64_t>(s.phase)).Add(s.attempts).Add(s.deadline.ms);
    h.Add(s.ok_count).Add(s.error_count).Add(s.unknown_count);
    h.Add(static_cast<uint64_t>(s.rows.size())).Add(static_cast<uint64_t>(s.result_rows.size()));
    for (const auto& [corr, request] : s.outstanding) h.Add(corr).Add(request.node.value);
  }
}

}  // namespace repartsim::model
