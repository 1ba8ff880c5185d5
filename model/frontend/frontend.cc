#include "model/frontend/frontend.h"

#include <algorithm>

#include "model/partition/prune.h"
#include "sim/assert.h"

namespace repartsim::model {

namespace {

// The row path under Rule::kUnifiedNullRouting: first match with the filter-path predicate, so
// routing agrees with the bulk path and the datanode file filter, NULL included.
uint32_t FindRegionUnified(const PartitionRule& rule, const TableSchema& schema, const Row& row) {
  size_t n = std::min(rule.regions.size(), rule.exprs.size());
  for (size_t i = 0; i < n; ++i) {
    if (MatchesFilterPath(rule.exprs[i], schema, row)) return rule.regions[i];
  }
  return kDefaultRegion;
}

// Under Rule::kUnifiedNullRouting a row no write expression matches may fall back to region 0
// only when region 0 has no expression (an unpartitioned source, which owns every row); a
// region with an expression cannot own it: its file filter would drop the row as soon as the
// file is remapped (P7: NULL under `a = 5, a <> 5`), losing an acknowledged write.
bool UnownedRow(const PartitionRule& rule, const TableRoute& route, const TableSchema& schema,
                const Row& row) {
  size_t n = std::min(rule.regions.size(), rule.exprs.size());
  for (size_t i = 0; i < n; ++i) {
    if (MatchesFilterPath(rule.exprs[i], schema, row)) return false;
  }
  for (const RegionRoute& r : route.region_routes) {
    if (r.region_id.region_number().value == kDefaultRegion) return r.partition_expr.has_value();
  }
  return true;
}

// The first column `expr` names that is not in `columns`, if any.
const std::string* ColumnOutside(const PartitionExpr& expr, const std::vector<std::string>& columns) {
  if (!expr.is_leaf()) {
    if (const std::string* c = ColumnOutside(expr.lhs(), columns)) return c;
    return ColumnOutside(expr.rhs(), columns);
  }
  if (std::find(columns.begin(), columns.end(), expr.column()) != columns.end()) return nullptr;
  return &expr.column();
}

// The real row path evaluates each expression, in rule order, over the values of the rule's
// partition columns only: an expression reached before a match that names another column
// fails the whole insert with an undefined column (multi_dim.rs evaluate_expr). That happens
// between UpdatePartitionMetadata and ApplyStaging of an ON COLUMNS repartition, when the
// column list is already the new one but the expressions are still the old ones (P13).
const std::string* RowPathUndefinedColumn(const PartitionRule& rule, const TableSchema& schema,
                                          const Row& row) {
  size_t n = std::min(rule.regions.size(), rule.exprs.size());
  for (size_t i = 0; i < n; ++i) {
    if (const std::string* c = ColumnOutside(rule.exprs[i], rule.columns)) return c;
    if (MatchesRowPath(rule.exprs[i], schema, row)) return nullptr;
  }
  return nullptr;
}

const RegionRoute* RouteOfNumber(const TableRoute& route, uint32_t number) {
  for (const RegionRoute& r : route.region_routes) {
    if (r.region_id.region_number().value == number) return &r;
  }
  return nullptr;
}

}  // namespace

PartitionView BuildPartitionView(const TableRoute& route, const TableInfo& info,
                                 const Protocol& protocol) {
  PartitionView view;
  view.write_rule.columns = info.PartitionColumnNames();
  const bool aligned = protocol.On(Rule::kAlignedPartitionRule);
  for (const RegionRoute& r : route.region_routes) {
    view.read_regions.push_back(r.region_id);
    if (r.ignores_writes()) continue;
    const uint32_t number = r.region_id.region_number().value;
    if (r.partition_expr.has_value()) {
      view.write_rule.exprs.push_back(*r.partition_expr);
      view.versions[number] = r.ExprVersionValue();
    }
    // The real frontend lists every write partition but only the exprs that exist, and the
    // rule zips the two lists by index (P3); the aligned rule leaves expr-less regions out.
    if (!aligned || r.partition_expr.has_value()) view.write_rule.regions.push_back(number);
  }
  return view;
}

void Frontend::StartInsert(uint64_t history_id, TableId table, std::vector<Row> rows, bool bulk,
                           NodeContext& ctx) {
  REPARTSIM_ASSERT(up_);
  const uint64_t key = StatementKey(Kind::kInsert, history_id);
  REPARTSIM_ASSERT(statements_.count(key) == 0);
  Statement& s = statements_[key];
  s.key = key;
  s.id = history_id;
  s.kind = Kind::kInsert;
  s.table = table;
  s.bulk = bulk;
  s.rows = std::move(rows);
  Dispatch(s, ctx);
}

void Frontend::StartQuery(uint64_t history_id, TableId table, NodeContext& ctx) {
  REPARTSIM_ASSERT(up_);
  const uint64_t key = StatementKey(Kind::kQuery, history_id);
  REPARTSIM_ASSERT(statements_.count(key) == 0);
  Statement& s = statements_[key];
  s.key = key;
  s.id = history_id;
  s.kind = Kind::kQuery;
  s.table = table;
  Dispatch(s, ctx);
}

void Frontend::RequestRoute(TableId table, NodeContext& ctx, uint32_t reloads) {
  if (fills_.count(table) != 0) return;
  Fill fill{NextCorr(), invalidations_[table], ctx.now() + config_.request_timeout, reloads};
  fills_[table] = fill;
  ctx.Send(metasrv_, RouteRequest{fill.corr, table});
  ctx.Log("fe.route_fill", "table=" + table.ToString());
}

void Frontend::Dispatch(Statement& statement, NodeContext& ctx) {
  auto cached = cache_.find(statement.table);
  if (cached == cache_.end()) {
    statement.phase = Phase::kWaitingRoute;
    RequestRoute(statement.table, ctx);
    return;
  }
  statement.phase = Phase::kInFlight;
  statement.deadline = ctx.now() + config_.request_timeout;
  if (statement.kind == Kind::kInsert) {
    DispatchInsert(statement, cached->second, ctx);
  } else {
    DispatchQuery(statement, cached->second, ctx);
  }
  MaybeFinish(statement, ctx);
}

void Frontend::DispatchInsert(Statement& statement, const CachedTable& table, NodeContext& ctx) {
  const PartitionView view = BuildPartitionView(table.route, table.info, ctx.protocol);
  const TableSchema& schema = table.info.schema;
  const bool unified = ctx.protocol.On(Rule::kUnifiedNullRouting);
  if (!statement.bulk && !ctx.protocol.On(Rule::kRowPathOverSchema)) {
    for (const Row& row : statement.rows) {
      if (const std::string* column = RowPathUndefinedColumn(view.write_rule, schema, row)) {
        ++statement.error_count;
        statement.error = "Undefined column: " + *column + " (not a partition column of table " +
                          statement.table.ToString() + ")";
        statement.rows.clear();
        return;
      }
    }
  }
  std::map<uint32_t, std::vector<Row>> by_region;
  for (Row& row : statement.rows) {
    if (unified && UnownedRow(view.write_rule, table.route, schema, row)) {
      ++statement.error_count;
      statement.error = "No partition of table " + statement.table.ToString() +
                        " covers the row (unified-null-routing)";
      continue;
    }
    if (statement.bulk) {
      std::vector<uint32_t> targets = RegionsBulkPath(view.write_rule, schema, row);
      for (size_t i = 0; i + 1 < targets.size(); ++i) by_region[targets[i]].push_back(row);
      by_region[targets.back()].push_back(std::move(row));
    } else {
      uint32_t region = unified ? FindRegionUnified(view.write_rule, schema, row)
                                : FindRegionRowPath(view.write_rule, schema, row);
      by_region[region].push_back(std::move(row));
    }
  }
  statement.rows.clear();
  std::map<NodeId, std::vector<RegionWrite>> by_node;
  for (auto& [number, rows] : by_region) {
    const RegionRoute* route = RouteOfNumber(table.route, number);
    if (route == nullptr || !route->leader.has_value()) {
      ++statement.error_count;
      statement.error = "Failed to find leader for region " +
                        RegionId::Of(statement.table, RegionNumber{number}).ToString();
      continue;
    }
    RegionWrite write{route->region_id, std::move(rows), std::nullopt};
    // Bulk writes go through the pending-rows batcher, which never stamps a version (P10).
    // Under the unversioned fence every write is stamped, 0 for a region without expression.
    auto version = view.versions.find(number);
    if (ctx.protocol.On(Rule::kVersionFenceUnversioned)) {
      write.version = version != view.versions.end() ? version->second : 0;
    } else if (!statement.bulk && version != view.versions.end()) {
      write.version = version->second;
    }
    by_node[*route->leader].push_back(std::move(write));
  }
  for (auto& [node, writes] : by_node) {
    uint64_t corr = NextCorr();
    corr_owner_[corr] = statement.key;
    ctx.Send(node, WriteRequest{corr, writes});
    statement.outstanding[corr] = SubRequest{node, std::move(writes), RegionId{}};
  }
}

void Frontend::DispatchQuery(Statement& statement, const CachedTable& table, NodeContext& ctx) {
  const PartitionView view = BuildPartitionView(table.route, table.info, ctx.protocol);
  const QueryRecord& record = ctx.history.Query(statement.id);
  statement.schema = table.info.schema;
  std::vector<RegionId> regions = view.read_regions;
  if (ctx.protocol.On(Rule::kFencedReads)) {
    // A merged-away or not yet applied region (IgnoreAllWrites) holds rows another region
    // serves, or will serve, under a fenced version: reading it too could duplicate rows.
    std::erase_if(regions, [&](RegionId region) {
      const RegionRoute* r = table.route.Find(region);
      return r != nullptr && r->ignores_writes();
    });
  }
  if (record.where.has_value() && table.info.is_partitioned()) {
    // Prune over the read-side partitions (every route, IgnoreAllWrites and Staging included).
    PartitionRule read_rule;
    read_rule.columns = table.info.PartitionColumnNames();
    bool all_have_expr = true;
    for (const RegionRoute& r : table.route.region_routes) {
      if (std::find(regions.begin(), regions.end(), r.region_id) == regions.end()) continue;
      if (!r.partition_expr.has_value()) {
        all_have_expr = false;
        break;
      }
      read_rule.regions.push_back(r.region_id.region_number().value);
      read_rule.exprs.push_back(*r.partition_expr);
    }
    if (all_have_expr) {
      PruneMode mode = ctx.protocol.base() == ProfileKind::kReference ? PruneMode::kExact
                                                                       : PruneMode::kGreptime;
      PruneResult pruned = PruneRegions(read_rule, table.info.schema, *record.where, mode);
      regions.clear();
      for (uint32_t number : pruned.regions) {
        regions.push_back(RegionId::Of(statement.table, RegionNumber{number}));
      }
    }
  }
  statement.scanned = regions;
  statement.result_rows.clear();
  for (RegionId region : regions) {
    const RegionRoute* route = table.route.Find(region);
    if (route == nullptr || !route->leader.has_value()) {
      ++statement.error_count;
      statement.error = "Failed to find leader for region " + region.ToString();
      continue;
    }
    std::optional<uint64_t> planned;
    if (ctx.protocol.On(Rule::kFencedReads)) planned = route->ExprVersionValue();
    uint64_t corr = NextCorr();
    corr_owner_[corr] = statement.key;
    ctx.Send(*route->leader, ScanRequest{corr, region, planned});
    statement.outstanding[corr] = SubRequest{*route->leader, {}, region};
  }
}

void Frontend::OnMessage(NodeId from, const Message& message, NodeContext& ctx) {
  (void)from;
  REPARTSIM_ASSERT(up_);
  if (const auto* m = std::get_if<RouteReply>(&message.body)) return OnRouteReply(*m, ctx);
  if (const auto* m = std::get_if<InvalidateCache>(&message.body)) return OnInvalidate(*m, ctx);
  if (const auto* m = std::get_if<WriteReply>(&message.body)) return OnWriteReply(*m, ctx);
  if (const auto* m = std::get_if<ScanResponse>(&message.body)) return OnScanResponse(*m, ctx);
  REPARTSIM_ASSERT_MSG(false, "frontend got a message it does not handle");
}

void Frontend::OnRouteReply(const RouteReply& reply, NodeContext& ctx) {
  auto fill = fills_.find(reply.table);
  if (fill == fills_.end() || fill->second.corr != reply.corr) return;  // stale or duplicate
  const bool raced = invalidations_[reply.table] != fill->second.invalidations_at_start;
  const uint32_t reloads = fill->second.reloads;
  fills_.erase(fill);
  if (raced && (ctx.protocol.On(Rule::kVersionedCacheFills) || reloads < kVersionCheckedReloads)) {
    ctx.Log("fe.fill_discarded", "table=" + reply.table.ToString() +
                                     " reload=" + std::to_string(reloads + 1));
    RequestRoute(reply.table, ctx, reloads + 1);
    return;
  }
  if (!reply.found) {
    cache_.erase(reply.table);
  } else {
    cache_[reply.table] = CachedTable{reply.route, reply.info};
  }
  ctx.Log("fe.route_filled", "table=" + reply.table.ToString() +
                                 " version=" + std::to_string(reply.route.version) +
                                 (raced ? " raced" : ""));
  std::vector<uint64_t> waiting;
  for (const auto& [id, statement] : statements_) {
    if (statement.table == reply.table && statement.phase == Phase::kWaitingRoute) {
      waiting.push_back(id);
    }
  }
  // Dispatch may finish (and erase) a statement, so look each one up again.
  for (uint64_t id : waiting) {
    Statement& statement = statements_.at(id);
    if (!reply.found) {
      ++statement.error_count;
      statement.error = "Table not found: " + reply.table.ToString();
      statement.phase = Phase::kInFlight;
      statement.rows.clear();
      MaybeFinish(statement, ctx);
      continue;
    }
    Dispatch(statement, ctx);
  }
}

void Frontend::OnInvalidate(const InvalidateCache& message, NodeContext& ctx) {
  if (ctx.protocol.On(Rule::kAckedInvalidation)) {
    ctx.Send(metasrv_, InvalidateAck{message.table, message.epoch});
  }
  if (ignore_invalidations_.count(message.table) != 0) {
    ctx.Log("fe.invalidate_ignored", "table=" + message.table.ToString());
    return;
  }
  ++invalidations_[message.table];
  cache_.erase(message.table);
  ctx.Log("fe.invalidate", "table=" + message.table.ToString());
}

void Frontend::OnWriteReply(const WriteReply& reply, NodeContext& ctx) {
  auto owner = corr_owner_.find(reply.corr);
  if (owner == corr_owner_.end()) return;  // duplicate or after timeout
  auto it = statements_.find(owner->second);
  corr_owner_.erase(owner);
  REPARTSIM_ASSERT(it != statements_.end());
  Statement& statement = it->second;
  auto request = statement.outstanding.find(reply.corr);
  REPARTSIM_ASSERT(request != statement.outstanding.end());
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
    cache_.erase(statement.table);
    ctx.Log("fe.reroute", "statement=" + std::to_string(statement.id));
    Dispatch(statement, ctx);
    return;
  }
  MaybeFinish(statement, ctx);
}

void Frontend::OnScanResponse(const ScanResponse& reply, NodeContext& ctx) {
  auto owner = corr_owner_.find(reply.corr);
  if (owner == corr_owner_.end()) return;
  auto it = statements_.find(owner->second);
  corr_owner_.erase(owner);
  REPARTSIM_ASSERT(it != statements_.end());
  Statement& statement = it->second;
  statement.outstanding.erase(reply.corr);
  if (reply.code == ReplyCode::kOk) {
    ++statement.ok_count;
    const QueryRecord& record = ctx.history.Query(statement.id);
    for (const Row& row : reply.rows) {
      if (record.where.has_value() && !EvaluatePredicate(*record.where, statement.schema, row)) {
        continue;
      }
      statement.result_rows.push_back(row);
    }
  } else if ((reply.code == ReplyCode::kPartitionExprVersionMismatch ||
              reply.code == ReplyCode::kRegionNotFound) &&
             ctx.protocol.On(Rule::kFencedReads) &&
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
    cache_.erase(statement.table);
    ctx.Log("fe.replan", "statement=" + std::to_string(statement.id));
    Dispatch(statement, ctx);
    return;
  }
  MaybeFinish(statement, ctx);
}

void Frontend::MaybeFinish(Statement& statement, NodeContext& ctx) {
  if (statement.phase != Phase::kInFlight || !statement.outstanding.empty()) return;
  if (statement.replan || !statement.rows.empty()) return;
  FinishStatement(statement, ctx);
  statements_.erase(statement.key);
}

void Frontend::FinishStatement(Statement& statement, NodeContext& ctx) {
  if (statement.kind == Kind::kInsert) {
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
                                 (record.error.empty() ? "" : " error=" + record.error));
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
  ctx.Log("fe.query_done", "id=" + std::to_string(statement.id) +
                               (record.status == QueryStatus::kOk
                                    ? " rows=" + std::to_string(record.rows.size())
                                    : " error=" + record.error));
}

std::optional<sim::SimTime> Frontend::NextTimer() const {
  std::optional<sim::SimTime> next;
  for (const auto& [table, fill] : fills_) {
    if (!next || fill.deadline < *next) next = fill.deadline;
  }
  for (const auto& [id, statement] : statements_) {
    if (statement.phase != Phase::kInFlight || statement.outstanding.empty()) continue;
    if (!next || statement.deadline < *next) next = statement.deadline;
  }
  return next;
}

void Frontend::OnTimer(NodeContext& ctx) {
  const sim::SimTime now = ctx.now();
  std::vector<TableId> refill;
  for (const auto& [table, fill] : fills_) {
    if (fill.deadline <= now) refill.push_back(table);
  }
  for (TableId table : refill) {
    fills_.erase(table);
    ctx.Log("fe.route_fill_timeout", "table=" + table.ToString());
    RequestRoute(table, ctx);
  }
  std::vector<uint64_t> expired;
  for (auto& [id, statement] : statements_) {
    if (statement.phase != Phase::kInFlight || statement.outstanding.empty()) continue;
    if (now < statement.deadline) continue;
    for (const auto& [corr, request] : statement.outstanding) corr_owner_.erase(corr);
    statement.unknown_count += static_cast<uint32_t>(statement.outstanding.size());
    statement.outstanding.clear();
    statement.rows.clear();
    statement.replan = false;
    statement.error = "request timed out";
    expired.push_back(id);
  }
  for (uint64_t id : expired) MaybeFinish(statements_.at(id), ctx);
}

void Frontend::Invalidate(TableId table) {
  ++invalidations_[table];
  cache_.erase(table);
}

void Frontend::SetIgnoreInvalidations(TableId table, bool ignore) {
  if (ignore) {
    ignore_invalidations_.insert(table);
  } else {
    ignore_invalidations_.erase(table);
  }
}

void Frontend::Crash(NodeContext& ctx) {
  // Every statement in flight ends unknown (writes) or in error (queries).
  for (auto& [id, statement] : statements_) {
    statement.unknown_count += static_cast<uint32_t>(statement.outstanding.size()) + 1;
    statement.outstanding.clear();
    statement.rows.clear();
    statement.replan = false;
    statement.phase = Phase::kInFlight;
    statement.error = "frontend crashed";
    FinishStatement(statement, ctx);
  }
  statements_.clear();
  corr_owner_.clear();
  cache_.clear();
  fills_.clear();
  invalidations_.clear();
  up_ = false;
}

void Frontend::Restart() { up_ = true; }

void Frontend::Hash(sim::Hasher& h) const {
  h.Add(id_.value).Add(up_).Add(next_corr_);
  h.Add(static_cast<uint64_t>(cache_.size()));
  for (const auto& [table, cached] : cache_) {
    h.Add(table.value);
    cached.route.Hash(h);
  }
  for (const auto& [table, count] : invalidations_) h.Add(table.value).Add(count);
  for (TableId table : ignore_invalidations_) h.Add(table.value);
  for (const auto& [table, fill] : fills_) {
    h.Add(table.value).Add(fill.corr).Add(fill.invalidations_at_start).Add(fill.deadline.ms);
    h.Add(fill.reloads);
  }
  h.Add(static_cast<uint64_t>(statements_.size()));
  for (const auto& [id, s] : statements_) {
    h.Add(id).Add(static_cast<uint64_t>(s.phase)).Add(s.attempts).Add(s.deadline.ms);
    h.Add(s.ok_count).Add(s.error_count).Add(s.unknown_count);
    h.Add(static_cast<uint64_t>(s.rows.size())).Add(static_cast<uint64_t>(s.result_rows.size()));
    for (const auto& [corr, request] : s.outstanding) h.Add(corr).Add(request.node.value);
  }
}

}  // namespace repartsim::model
