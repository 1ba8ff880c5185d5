#include "model/frontend/statement_table.h"

#include <utility>

#include "model/meta/table_info.h"
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

FrontendStatement* StatementTable::FindOwner(uint64_t corr) {
  auto owner = corr_owner_.find(corr);
  if (owner == corr_owner_.end()) return nullptr;
  auto it = statements_.find(owner->second);
  REPARTSIM_ASSERT(it != statements_.end());
  REPARTSIM_ASSERT(it->second.outstanding.count(corr) == 1);
  return &it->second;
}

bool StatementTable::NoteResend(uint64_t corr) {
  FrontendStatement* owner = FindOwner(corr);
  if (owner == nullptr) return false;
  REPARTSIM_ASSERT(owner->kind == StatementKind::kInsert);
  ++owner->resent[corr].copies_in_flight;
  return true;
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
    statement.resent.clear();
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
    statement.resent.clear();
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
  record.row_count = record.rows.size();
  record.count = statement.result_count;
  record.regions = statement.scanned;
  record.end_step = ctx.step.step;
  record.end = ctx.now();
  const uint64_t rows = statement.count_star ? record.count : record.rows.size();
  ctx.Log("fe.query_done",
          "id=" + std::to_string(statement.id) +
              (record.status == QueryStatus::kOk ? " rows=" + std::to_string(rows)
                                                 : " error=" + Quoted(record.error)));
}

namespace {

void HashRowList(const std::vector<Row>& rows, sim::Hasher& h) {
  h.Add(static_cast<uint64_t>(rows.size()));
  for (const Row& row : rows) {
    h.Add(static_cast<uint64_t>(row.size()));
    for (const Value& v : row) v.Hash(h);
  }
}

}  // namespace

void StatementTable::Hash(sim::Hasher& h) const {
  // Every field of every statement (rows by content: a re-route re-sends them), each container
  // with its size; corr_owner_ too, though between events it names exactly the outstanding
  // requests.
  h.Add(static_cast<uint64_t>(statements_.size()));
  for (const auto& [key, s] : statements_) {
    h.Add(key).Add(s.id).Add(s.key).Add(static_cast<uint64_t>(s.kind)).Add(s.table.value);
    h.Add(static_cast<uint64_t>(s.path))
        .Add(static_cast<uint64_t>(s.phase))
        .Add(s.attempts)
        .Add(s.deadline.ms);
    HashRowList(s.rows, h);
    h.Add(static_cast<uint64_t>(s.outstanding.size()));
    for (const auto& [corr, request] : s.outstanding) {
      h.Add(corr).Add(request.node.value).Add(request.region.value);
      h.Add(static_cast<uint64_t>(request.writes.size()));
      for (const RegionWrite& w : request.writes) {
        h.Add(w.region.value).Add(w.version.has_value()).Add(w.version.value_or(0));
        HashRowList(w.rows, h);
      }
    }
    h.Add(static_cast<uint64_t>(s.resent.size()));
    for (const auto& [corr, copies] : s.resent) {
      h.Add(corr).Add(copies.copies_in_flight).Add(static_cast<uint64_t>(copies.refused.size()));
      for (const RegionWriteResult& r : copies.refused) {
        h.Add(r.region.value).Add(static_cast<uint64_t>(r.code)).Add(r.message);
      }
    }
    h.Add(s.ok_count).Add(s.error_count).Add(s.unknown_count).Add(s.error);
    h.Add(s.where.has_value());
    if (s.where.has_value()) h.Add(s.where->ToSql());
    HashRowList(s.result_rows, h);
    if (s.count_star) h.Add(s.result_count);
    HashSchema(s.schema, h);
    h.Add(static_cast<uint64_t>(s.scanned.size()));
    for (RegionId region : s.scanned) h.Add(region.value);
    h.Add(s.replan);
  }
  h.Add(static_cast<uint64_t>(corr_owner_.size()));
  for (const auto& [corr, key] : corr_owner_) h.Add(corr).Add(key);
}

}  // namespace repartsim::model
