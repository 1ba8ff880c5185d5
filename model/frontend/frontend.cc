#include "model/frontend/frontend.h"

#include <algorithm>
#include <string>
#include <utility>

#include "model/frontend/query_planner.h"
#include "model/frontend/write_router.h"
#include "model/node/refusal.h"
#include "model/partition/predicate.h"
#include "model/protocol/rules.h"
#include "sim/assert.h"

namespace repartsim::model {

void Frontend::StartInsert(uint64_t history_id, TableId table, std::vector<Row> rows,
                           WritePath path, NodeContext& ctx) {
  REPARTSIM_ASSERT(up_);
  FrontendStatement& s = statements_.Add(StatementKind::kInsert, history_id, table);
  s.path = path;
  s.rows = std::move(rows);
  Dispatch(s, ctx);
}

void Frontend::StartQuery(uint64_t history_id, TableId table, std::optional<Predicate> where,
                          NodeContext& ctx) {
  REPARTSIM_ASSERT(up_);
  FrontendStatement& s = statements_.Add(StatementKind::kQuery, history_id, table);
  s.where = std::move(where);
  s.count_star = ctx.history.Query(history_id).count_star;
  Dispatch(s, ctx);
}

void Frontend::RequestRoute(TableId table, NodeContext& ctx, uint32_t reloads) {
  if (routes_.Filling(table)) return;
  const uint64_t corr = NextCorr();
  routes_.StartFill(table, corr, ctx.now() + config_.request_timeout, reloads);
  ctx.Send(metasrv_, RouteRequest{corr, table});
  ctx.Log("fe.route_fill", "table=" + table.ToString());
}

void Frontend::Dispatch(FrontendStatement& statement, NodeContext& ctx) {
  const CachedTable* cached = routes_.Find(statement.table);
  if (cached == nullptr) {
    statement.phase = StatementPhase::kWaitingRoute;
    RequestRoute(statement.table, ctx);
    return;
  }
  statement.phase = StatementPhase::kInFlight;
  statement.deadline = ctx.now() + config_.request_timeout;
  if (statement.kind == StatementKind::kInsert) {
    DispatchInsert(statement, *cached, ctx);
  } else {
    DispatchQuery(statement, *cached, ctx);
  }
  statements_.MaybeFinish(statement, ctx);
}

void Frontend::DispatchInsert(FrontendStatement& statement, const CachedTable& table,
                              NodeContext& ctx) {
  WriteRouting routing =
      RouteWrite(table, statement.table, std::move(statement.rows), statement.path, ctx.protocol);
  statement.rows.clear();
  statement.error_count += routing.error_count;
  if (!routing.error.empty()) statement.error = std::move(routing.error);
  for (auto& [node, writes] : routing.by_node) {
    if (statement.path != WritePath::kFlight) {
      SendWrite(statement, node, std::move(writes), ctx);
      continue;
    }
    // The Flight path sends each region's batch as its own request (bulk_insert.rs), so a
    // delay, loss or refusal hits one region, not every region of the datanode.
    for (RegionWrite& write : writes) SendWrite(statement, node, {std::move(write)}, ctx);
  }
}

void Frontend::SendWrite(FrontendStatement& statement, NodeId node, std::vector<RegionWrite> writes,
                         NodeContext& ctx) {
  const uint64_t corr = NextCorr();
  ctx.Send(node, WriteRequest{corr, writes, statement.id});
  statements_.Track(statement, corr, SubRequest{node, std::move(writes), RegionId{}});
}

void Frontend::DispatchQuery(FrontendStatement& statement, const CachedTable& table,
                             NodeContext& ctx) {
  ctx.history.Query(statement.id).route_version = table.route.version;
  QueryPlan plan = PlanQuery(table, statement.table, statement.where, ctx.protocol);
  statement.schema = table.info.schema;
  statement.scanned = std::move(plan.regions);
  {
    std::string numbers;
    for (RegionId region : statement.scanned) {
      // (Appended in two steps: `const char* + std::string&&` trips GCC 12's false
      // -Wrestrict at -O3, which breaks the Release build.)
      if (!numbers.empty()) numbers += ',';
      numbers += std::to_string(region.region_number().value);
    }
    ctx.Log("fe.query_plan", "id=" + std::to_string(statement.id) +
                                 " table=" + statement.table.ToString() +
                                 " version=" + std::to_string(table.route.version) +
                                 " regions=" + (numbers.empty() ? "-" : numbers));
  }
  statement.result_rows.clear();
  statement.result_count = 0;
  statement.error_count += plan.error_count;
  if (!plan.error.empty()) statement.error = std::move(plan.error);
  // Rule::kRouteFencedReads: every scan names the route version it was planned with.
  const uint64_t route_version = ctx.protocol.On(Rule::kRouteFencedReads) ? table.route.version : 0;
  // An unfiltered count(*) asks each region for its count (the aggregate is pushed down).
  const bool count_only = statement.count_star && !statement.where.has_value();
  for (const RegionScan& scan : plan.scans) {
    const uint64_t corr = NextCorr();
    ctx.Send(scan.leader,
             ScanRequest{corr, scan.region, scan.planned_version, route_version, count_only});
    statements_.Track(statement, corr, SubRequest{scan.leader, {}, scan.region});
  }
}

void Frontend::OnMessage(NodeId from, Message&& message, NodeContext& ctx) {
  (void)from;
  REPARTSIM_ASSERT(up_);
  if (const auto* m = std::get_if<RouteReply>(&message.body)) return OnRouteReply(*m, ctx);
  if (const auto* m = std::get_if<InvalidateCache>(&message.body)) return OnInvalidate(*m, ctx);
  if (const auto* m = std::get_if<WriteReply>(&message.body)) return OnWriteReply(*m, ctx);
  if (auto* m = std::get_if<ScanResponse>(&message.body)) return OnScanResponse(*m, ctx);
  if (const auto* m = std::get_if<DdlReply>(&message.body)) return OnDdlReply(*m, ctx);
  REPARTSIM_ASSERT_MSG(false, "frontend got a message it does not handle");
}

void Frontend::OnRouteReply(const RouteReply& reply, NodeContext& ctx) {
  const RouteCache::FillResult fill =
      routes_.CompleteFill(reply, ctx.protocol.On(Rule::kDiscardRacedFills),
                           ctx.protocol.On(Rule::kVersionedCacheFills));
  using Kind = RouteCache::FillResult::Kind;
  if (fill.kind == Kind::kIgnored) return;  // stale or duplicate
  if (fill.kind == Kind::kDiscarded) {
    ctx.Log("fe.fill_discarded",
            "table=" + reply.table.ToString() + " reload=" + std::to_string(fill.reloads + 1));
    RequestRoute(reply.table, ctx, fill.reloads + 1);
    return;
  }
  if (fill.kind == Kind::kFailed) {
    const std::string attempts = std::to_string(fill.reloads + 1);
    ctx.Log("fe.fill_failed", "table=" + reply.table.ToString() + " attempts=" + attempts);
    const std::string error =
        std::string(kCacheLoadFailedError) + attempts + " attempts due to concurrent invalidation";
    FailWaitingDdls(reply.table, error, ctx);
    FailWaitingStatements(reply.table, error, ctx);
    return;
  }
  ctx.Log("fe.route_filled", "table=" + reply.table.ToString() +
                                 " version=" + std::to_string(reply.route.version) +
                                 (fill.raced ? " raced" : ""));
  OnDdlRoute(reply.table, reply.found, ctx);
  if (!reply.found) {
    FailWaitingStatements(reply.table, "Table not found: " + reply.table.ToString(), ctx);
    return;
  }
  // Dispatch may finish (and erase) a statement, so look each one up again.
  for (uint64_t key : statements_.WaitingForRoute(reply.table)) {
    Dispatch(statements_.At(key), ctx);
  }
}

void Frontend::FailWaitingStatements(TableId table, const std::string& error, NodeContext& ctx) {
  for (uint64_t key : statements_.WaitingForRoute(table)) {
    FrontendStatement& statement = statements_.At(key);
    REPARTSIM_ASSERT(statement.phase == StatementPhase::kWaitingRoute);
    ++statement.error_count;
    statement.error = error;
    statement.phase = StatementPhase::kInFlight;
    statement.rows.clear();
    statements_.MaybeFinish(statement, ctx);
  }
}

void Frontend::OnInvalidate(const InvalidateCache& message, NodeContext& ctx) {
  if (ctx.protocol.On(Rule::kAckedInvalidation)) {
    ctx.Send(metasrv_, InvalidateAck{message.table, message.epoch});
  }
  if (!routes_.ReceiveInvalidation(message.table)) {
    ctx.Log("fe.invalidate_ignored", "table=" + message.table.ToString());
    return;
  }
  ctx.Log("fe.invalidate", "table=" + message.table.ToString());
}

void Frontend::NoteResent(uint64_t corr, NodeContext& ctx) {
  if (!statements_.NoteResend(corr)) return;
  ctx.Log("fe.resend", "corr=" + std::to_string(corr));
}

void Frontend::OnWriteReply(const WriteReply& received, NodeContext& ctx) {
  FrontendStatement* owner = statements_.FindOwner(received.corr);
  if (owner == nullptr) return;  // a copy after the request ended, or after a timeout
  FrontendStatement& statement = *owner;
  WriteReply reply = received;
  auto copies = statement.resent.find(reply.corr);
  if (copies != statement.resent.end()) {
    // The frontend resent this request: a refusal is definite only once every copy refused.
    const bool all_ok =
        std::all_of(reply.results.begin(), reply.results.end(),
                    [](const RegionWriteResult& r) { return r.code == ReplyCode::kOk; });
    if (!all_ok && copies->second.copies_in_flight > 0) {
      --copies->second.copies_in_flight;
      for (const RegionWriteResult& r : reply.results) copies->second.refused.push_back(r);
      ctx.Log("fe.copy_refused",
              "statement=" + std::to_string(statement.id) + " corr=" + std::to_string(reply.corr) +
                  " copies_left=" + std::to_string(copies->second.copies_in_flight + 1));
      return;
    }
    // A region some copy applied is applied.
    for (RegionWriteResult& r : reply.results) {
      for (const RegionWriteResult& earlier : copies->second.refused) {
        if (earlier.region == r.region && earlier.code == ReplyCode::kOk) r = earlier;
      }
    }
    statement.resent.erase(copies);
  }
  FrontendStatement* taken = statements_.TakeOwner(reply.corr);
  REPARTSIM_ASSERT(taken == &statement);
  auto request = statement.outstanding.find(reply.corr);
  SubRequest sent = std::move(request->second);
  statement.outstanding.erase(request);
  bool failed = false;
  bool any_ok = false;  // some region applied rows (a fully re-routed request applied none)
  bool reroute = ctx.protocol.On(Rule::kRerouteOnVersionMismatch) &&
                 statement.attempts < config_.reroute_attempts_max;
  for (const RegionWriteResult& result : reply.results) {
    if (result.code == ReplyCode::kOk) {
      any_ok = true;
      continue;
    }
    if (reroute && result.code == ReplyCode::kPartitionExprVersionMismatch) {
      // Refresh the route and re-route the rejected region's rows (reference rule switch).
      for (RegionWrite& write : sent.writes) {
        if (write.region != result.region) continue;
        for (Row& row : write.rows) statement.rows.push_back(std::move(row));
      }
      continue;
    }
    failed = true;
    statement.error = result.message;
  }
  // A request some regions applied and others refused counts as both: the statement is then
  // Unknown (partially applied), never Rejected.
  if (failed) ++statement.error_count;
  if (any_ok) ++statement.ok_count;
  if (!statement.rows.empty() && statement.outstanding.empty()) {
    ++statement.attempts;
    routes_.Drop(statement.table);
    ctx.Log("fe.reroute", "statement=" + std::to_string(statement.id));
    Dispatch(statement, ctx);
    return;
  }
  statements_.MaybeFinish(statement, ctx);
}

void Frontend::OnScanResponse(ScanResponse& reply, NodeContext& ctx) {
  FrontendStatement* owner = statements_.TakeOwner(reply.corr);
  if (owner == nullptr) return;
  FrontendStatement& statement = *owner;
  statement.outstanding.erase(reply.corr);
  if (reply.code == ReplyCode::kOk) {
    ++statement.ok_count;
    statement.result_count += reply.count;
    BoundPredicate where;  // its columns looked up once for all the rows
    if (statement.where.has_value() && !reply.rows.empty()) {
      where = BoundPredicate(*statement.where, statement.schema);
    }
    for (Row& row : reply.rows) {
      if (where.predicate() != nullptr && !where.Evaluate(row)) continue;
      if (statement.count_star) {
        ++statement.result_count;  // count(*) with a WHERE: counted, not kept
      } else {
        statement.result_rows.push_back(std::move(row));  // the reply is consumed
      }
    }
  } else if ((reply.code == ReplyCode::kPartitionExprVersionMismatch ||
              reply.code == ReplyCode::kRegionNotFound) &&
             (ctx.protocol.On(Rule::kFencedReads) || ctx.protocol.On(Rule::kRouteFencedReads)) &&
             statement.attempts < config_.reroute_attempts_max) {
    statement.replan = true;
  } else {
    ++statement.error_count;
    statement.error = reply.message;
  }
  if (statement.replan && statement.outstanding.empty()) {
    // Re-plan the whole query with a fresh route (fenced reads).
    statement.replan = false;
    ++statement.attempts;
    statement.ok_count = 0;
    // A region the stale plan named that is gone (merged away and dropped) is re-planned
    // too, so errors of the stale attempt do not outlive it.
    statement.error_count = 0;
    statement.error.clear();
    routes_.Drop(statement.table);
    ctx.Log("fe.replan", "statement=" + std::to_string(statement.id));
    Dispatch(statement, ctx);
    return;
  }
  statements_.MaybeFinish(statement, ctx);
}

std::optional<sim::SimTime> Frontend::NextTimer() const {
  std::optional<sim::SimTime> next = routes_.NextDeadline();
  if (std::optional<sim::SimTime> t = statements_.NextDeadline()) {
    if (!next || *t < *next) next = t;
  }
  if (std::optional<sim::SimTime> t = NextDdlDeadline()) {
    if (!next || *t < *next) next = t;
  }
  return next;
}

void Frontend::OnTimer(NodeContext& ctx) {
  const sim::SimTime now = ctx.now();
  for (TableId table : routes_.TakeExpiredFills(now)) {
    ctx.Log("fe.route_fill_timeout", "table=" + table.ToString());
    RequestRoute(table, ctx);
  }
  for (uint64_t key : statements_.ExpireRequests(now)) {
    statements_.MaybeFinish(statements_.At(key), ctx);
  }
  ExpireDdls(ctx);
}

void Frontend::Crash(NodeContext& ctx) {
  statements_.CrashAll(ctx);
  while (!ddls_.empty())
    FinishDdl(ddls_.begin()->first, DdlStatus::kUnknown, 0, "frontend crashed", ctx);
  routes_.Clear();
  up_ = false;
}

void Frontend::Hash(sim::Hasher& h) const {
  h.Add(id_.value).Add(up_).Add(next_corr_);
  routes_.Hash(h);
  statements_.Hash(h);
  HashDdls(h);
}

}  // namespace repartsim::model
