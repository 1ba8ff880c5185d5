#include "model/cluster/cluster.h"

#include <algorithm>

#include "model/cluster/ownership_probe.h"
#include "model/meta/table_metadata.h"
#include "model/ddl/create_table_procedure.h"
#include "model/repartition/repartition_procedure.h"
#include "model/sql/repartition_planner.h"
#include "sim/assert.h"

namespace repartsim::model {

namespace {

std::vector<NodeId> DatanodeIds(const ClusterConfig& config) {
  std::vector<NodeId> ids;
  for (uint32_t i = 0; i < config.datanode_count; ++i) ids.push_back(NodeId{1 + i});
  return ids;
}

std::vector<NodeId> FrontendIds(const ClusterConfig& config) {
  std::vector<NodeId> ids;
  for (uint32_t i = 0; i < config.frontend_count; ++i) {
    ids.push_back(NodeId{1 + config.datanode_count + i});
  }
  return ids;
}

// Appends the History record of a client statement issued through `fe` now; when `fe` is down
// the statement fails at once ("frontend unavailable") and the caller sets its status.
template <class Record>
Record& BeginRecord(std::vector<Record>& records, const Frontend& fe, TableId table,
                    const sim::StepContext& step) {
  Record& record = records.emplace_back();
  record.id = records.size();
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

Cluster::Cluster(ClusterConfig config, Protocol protocol)
    : config_(config),
      protocol_(protocol),
      metasrv_(NodeId{0}, DatanodeIds(config), FrontendIds(config), config.metasrv),
      network_(1 + config.datanode_count + config.frontend_count) {
  REPARTSIM_ASSERT(config.datanode_count >= 1);
  REPARTSIM_ASSERT(config.frontend_count >= 1);
  for (uint32_t i = 0; i < config_.datanode_count; ++i) {
    datanodes_.emplace_back(datanode_id(i), config_.metasrv.region_lease);
    // Heartbeats are staggered so datanodes do not all report at the same instant.
    next_heartbeat_.push_back(sim::SimTime{0} + sim::Ms(1 + i * 100));
  }
  for (uint32_t i = 0; i < config_.frontend_count; ++i) {
    frontends_.emplace_back(frontend_id(i), metasrv_id(), config_.frontend);
  }
  paused_until_.assign(node_count(), sim::SimTime{0});
}

bool Cluster::IsDatanode(NodeId node) const {
  return node.value >= 1 && node.value <= config_.datanode_count;
}

bool Cluster::IsFrontend(NodeId node) const {
  return node.value > config_.datanode_count && node.value < node_count();
}

size_t Cluster::DatanodeIndex(NodeId node) const {
  REPARTSIM_ASSERT(IsDatanode(node));
  return node.value - 1;
}

const Datanode& Cluster::datanode(NodeId node) const { return datanodes_[DatanodeIndex(node)]; }
Datanode& Cluster::mutable_datanode(NodeId node) { return datanodes_[DatanodeIndex(node)]; }

std::string Cluster::NodeName(NodeId node) const {
  if (node.value == 0) return "metasrv";
  if (IsDatanode(node)) return "dn" + std::to_string(node.value);
  return "fe" + std::to_string(node.value - config_.datanode_count);
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

void Cluster::Schedule(sim::SimTime at, ScheduledOp op) { ops_.Push(at, std::move(op)); }

// ---- sim::Model -----------------------------------------------------------------------------

void Cluster::Enabled(std::vector<sim::EnabledEvent>& out) const {
  // Nothing runs in the past: a deadline that already passed fires now.
  auto at = [&](sim::SimTime t) { return sim::Max(t, now_); };
  // A paused node runs nothing before its pause ends.
  auto at_node = [&](sim::SimTime t, uint32_t node) {
    return at(sim::Max(t, paused_until_[node]));
  };
  // Only the head of each directed stream is deliverable (FIFO), and a datanode's stream to
  // the metasrv waits while its heartbeat session is busy with a reply not pushed yet.
  network_.ForEachDeliverable([&](size_t i, const auto& entry) {
    const auto& e = entry.payload;
    if (e.channel == sim::Channel::kStream && e.to == metasrv_id().value &&
        IsDatanode(NodeId{e.from}) && SessionBusy(NodeId{e.from})) {
      return;
    }
    out.push_back({at_node(entry.at, e.to), entry.seq, e.to, kDeliver, i});
  });
  if (metasrv_.is_up()) {
    metasrv_.procedures().ForEachRunnable([&](ProcedureId id, sim::SimTime wake) {
      out.push_back({at(wake), 0, 0, kProcedure, id.value});
    });
    if (std::optional<sim::SimTime> t = metasrv_.NextTimer()) {
      out.push_back({at(*t), 0, 0, kMetasrvTimer, 0});
    }
  }
  for (uint32_t i = 0; i < datanodes_.size(); ++i) {
    const Datanode& dn = datanodes_[i];
    if (!dn.is_up()) continue;
    out.push_back({at_node(next_heartbeat_[i], dn.id().value), 0, dn.id().value, kHeartbeat, i});
    if (std::optional<sim::SimTime> t = dn.NextLeaseDeadline()) {
      out.push_back({at_node(*t, dn.id().value), 0, dn.id().value, kLeaseExpiry, i});
    }
  }
  for (uint32_t i = 0; i < frontends_.size(); ++i) {
    const Frontend& fe = frontends_[i];
    if (!fe.is_up()) continue;
    if (std::optional<sim::SimTime> t = fe.NextTimer()) {
      out.push_back({at(*t), 0, fe.id().value, kFrontendTimer, i});
    }
  }
  for (size_t i = 0; i < ops_.size(); ++i) {
    out.push_back({at(ops_.At(i).at), 0, sim::kNoNode, kScheduledOp, i});
  }
  for (size_t i = 0; i < armed_.size(); ++i) {
    if (armed_[i].due) out.push_back({at(*armed_[i].due), 0, sim::kNoNode, kArmedOp, i});
  }
  for (size_t i = 0; i < held_.size(); ++i) {
    if (held_[i].release_at) {
      out.push_back({at(*held_[i].release_at), 0, held_[i].from.value, kHeldRelease, i});
    }
  }
}

void Cluster::Fire(const sim::EnabledEvent& event, sim::StepContext& step) {
  now_ = step.now;
  switch (event.kind) {
    case kDeliver:
      DeliverMessage(event.ref, step);
      return;
    case kProcedure: {
      const ProcedureId id{event.ref};
      std::string before;
      if (track_states_) before = ProcedureStateName(id);
      NodeContext ctx(metasrv_id(), step, protocol_, history_);
      metasrv_.RunProcedure(id, ctx);
      Flush(ctx, step);
      UpdateDdlOutcomes(step);
      if (!before.empty()) NoteProcedureStep(id, before, step);
      return;
    }
    case kMetasrvTimer: {
      NodeContext ctx(metasrv_id(), step, protocol_, history_);
      metasrv_.OnTimer(ctx);
      Flush(ctx, step);
      UpdateDdlOutcomes(step);  // procedures may just have been recovered
      return;
    }
    case kHeartbeat: {
      Datanode& dn = datanodes_[event.ref];
      const NodeFaults& faults = config_.node_faults;
      if (step.now > paused_until_[dn.id().value] && faults.pause_ms_max.ms > 0 &&
          step.chooser.Chance("net.pause", faults.pause)) {
        REPARTSIM_ASSERT(faults.pause_ms_max.ms <= int64_t{0xffffffff});
        const uint32_t extra = step.chooser.Choose(
            "net.pause_ms", static_cast<uint32_t>(faults.pause_ms_max.ms));
        paused_until_[dn.id().value] = step.now + sim::Ms(1 + int64_t{extra});
        step.Log(dn.id().value, "net.pause",
                 NodeName(dn.id()) + " until " +
                     std::to_string(paused_until_[dn.id().value].ms));
        return;  // the heartbeat goes out when the pause ends
      }
      NodeContext ctx(dn.id(), step, protocol_, history_);
      ctx.Send(metasrv_id(), dn.MakeHeartbeat(step.now));
      next_heartbeat_[event.ref] = step.now + config_.heartbeat_interval;
      Flush(ctx, step);
      return;
    }
    case kLeaseExpiry: {
      Datanode& dn = datanodes_[event.ref];
      for (RegionId region : dn.ExpireLeases(step.now, protocol_)) {
        step.Log(dn.id().value, "dn.lease_expired", region.ToString());
      }
      return;
    }
    case kFrontendTimer: {
      Frontend& fe = frontends_[event.ref];
      NodeContext ctx(fe.id(), step, protocol_, history_);
      fe.OnTimer(ctx);
      Flush(ctx, step);
      return;
    }
    case kScheduledOp:
      RunScheduledOp(event.ref, step);
      return;
    case kArmedOp:
      RunArmedOp(event.ref, step);
      return;
    case kHeldRelease:
      ReleaseHeld(event.ref, step);
      return;
  }
  REPARTSIM_UNREACHABLE();
}

void Cluster::DeliverMessage(size_t index, sim::StepContext& step) {
  auto delivery = network_.Take(index);
  const auto& envelope = delivery.envelope;
  NodeId from{envelope.from};
  NodeId to{envelope.to};
  const char* kind = MessageKindName(envelope.msg);
  if (!delivery.delivered) {
    step.Log(to.value, "net.cut", kind);
    if (envelope.channel == sim::Channel::kStream) OnStreamReset(from, to, step);
    return;
  }
  step.Log(to.value, "recv", std::string(kind) + " from=" + NodeName(from));
  NodeContext ctx(to, step, protocol_, history_);
  if (to == metasrv_id()) {
    metasrv_.OnMessage(from, envelope.msg, ctx);
  } else if (IsDatanode(to)) {
    OwnershipProbe probe(history_);
    mutable_datanode(to).OnMessage(from, envelope.msg, object_store_, ctx, &probe);
  } else {
    frontends_[to.value - 1 - config_.datanode_count].OnMessage(from, envelope.msg, ctx);
  }
  Flush(ctx, step);
}

void Cluster::RunScheduledOp(size_t index, sim::StepContext& step) {
  auto entry = ops_.PopAt(index);
  ExecuteOp(entry.payload, step);
}

void Cluster::ExecuteOp(ScheduledOp& op, sim::StepContext& step) {
  step.Log(sim::kNoNode, "op", ScheduledOpName(op));
  if (auto* statement = std::get_if<ClientStatement>(&op)) return RunStatement(*statement, step);
  RunFaultAction(std::get<FaultAction>(op), step);
}

void Cluster::RunStatement(ClientStatement& op, sim::StepContext& step) {
  if (auto* insert = std::get_if<InsertOp>(&op)) {
    Frontend& fe = frontends_[insert->frontend_index];
    WriteRecord& record = BeginRecord(history_.writes, fe, insert->table, step);
    record.rows = insert->rows;
    record.bulk = insert->bulk;
    if (!fe.is_up()) {
      record.status = WriteStatus::kRejected;
      return;
    }
    NodeContext ctx(fe.id(), step, protocol_, history_);
    const uint64_t id = record.id;  // `record` may move once the frontend records outcomes
    fe.StartInsert(id, insert->table, std::move(insert->rows), insert->bulk, ctx);
    Flush(ctx, step);
    return;
  }
  if (auto* query = std::get_if<QueryOp>(&op)) {
    Frontend& fe = frontends_[query->frontend_index];
    QueryRecord& record = BeginRecord(history_.queries, fe, query->table, step);
    record.count_star = query->count_star;
    record.where = query->where;
    record.sql = query->sql;
    if (!fe.is_up()) {
      record.status = QueryStatus::kError;
      return;
    }
    const uint64_t id = record.id;
    NodeContext ctx(fe.id(), step, protocol_, history_);
    fe.StartQuery(id, query->table, ctx);
    Flush(ctx, step);
    return;
  }
  if (auto* create = std::get_if<CreateTableOp>(&op)) {
    if (!metasrv_.is_up() || !metasrv_.recovered()) return;
    for (const RegionRoute& r : create->route.region_routes) {
      metasrv_.operating_regions().insert(r.region_id);
    }
    ProcedureId id = metasrv_.Submit(CreateTableProcedure(create->info, create->route), step.now);
    step.Log(metasrv_id().value, "ms.submit", "CreateTable procedure=" + std::to_string(id.value));
    return;
  }
  if (auto* repartition = std::get_if<RepartitionOp>(&op)) {
    return StartRepartition(*repartition, step);
  }
  REPARTSIM_UNREACHABLE();
}

void Cluster::StartRepartition(const RepartitionOp& op, sim::StepContext& step) {
  DdlRecord record;
  record.id = history_.ddls.size() + 1;
  record.sql = op.sql;
  record.start_step = step.step;
  record.start = step.now;
  auto reject = [&](std::string error) {
    record.status = DdlStatus::kRejected;
    record.error = std::move(error);
    record.end_step = step.step;
    record.end = step.now;
    step.Log(frontend_id(op.frontend_index).value, "fe.ddl_rejected", record.error);
    history_.ddls.push_back(std::move(record));
  };
  // Before procedures are recovered (leader start) the procedure manager takes no DDL.
  if (!frontends_[op.frontend_index].is_up() || !metasrv_.is_up() || !metasrv_.recovered()) {
    return reject("unavailable");
  }
  // The frontend's validation pipeline (docs/protocol.md section 4), against the current metadata.
  std::optional<TableInfo> info = ReadTableInfo(metasrv_.kv(), op.table);
  std::optional<TableRoute> route = ReadTableRoute(metasrv_.kv(), op.table);
  if (!info.has_value() || !route.has_value()) return reject("Table not found: " + op.alter.table);
  sql::TableState table;
  table.schema = info->schema;
  table.rule.columns = info->PartitionColumnNames();
  for (const RegionRoute& r : route->region_routes) {
    if (!r.partition_expr.has_value()) continue;
    table.rule.regions.push_back(r.region_id.region_number().value);
    table.rule.exprs.push_back(*r.partition_expr);
  }
  table.max_region_number = route->max_region_number.value;
  table.gc_enabled = config_.gc_enabled;
  sql::PlanOptions options;
  options.check_mode =
      protocol_.On(Rule::kExactRuleChecker) ? CheckMode::kExact : CheckMode::kGreptime;
  options.global_transition_indices = !protocol_.On(Rule::kPerGroupIndices);
  options.exact_overlap = protocol_.On(Rule::kExactRuleChecker);
  sim::Result<sql::RepartitionPlan> plan =
      sql::PlanRepartition(table, op.alter, sim::SourceLocation{}, options);
  if (!plan.ok()) return reject(plan.error().message);
  // ensure_gc_requirement writes the durable marker before every submission.
  metasrv_.mutable_kv().Put("__requirements/gc/repartition", "repartition");
  RepartitionProcedure::PersistentContext ctx;
  ctx.table = op.table;
  ctx.table_name = info->name;
  ctx.from_exprs = plan.value().from;
  ctx.to_exprs = plan.value().to;
  if (op.alter.on_columns.has_value()) ctx.target_columns = op.alter.on_columns;
  if (op.alter.kind == sql::AlterRepartition::Kind::kPartitionOn && !ctx.target_columns) {
    ctx.target_columns = plan.value().target_columns;
  }
  ctx.timeout_ms = plan.value().timeout_ms;
  ProcedureId id = metasrv_.Submit(RepartitionProcedure(std::move(ctx)), step.now);
  record.procedure = id.value;
  record.status = DdlStatus::kPending;
  step.Log(metasrv_id().value, "ms.submit", "Repartition procedure=" + std::to_string(id.value));
  history_.ddls.push_back(std::move(record));
}

void Cluster::UpdateDdlOutcomes(sim::StepContext& step) {
  for (DdlRecord& ddl : history_.ddls) {
    if (ddl.status != DdlStatus::kPending || !metasrv_.is_up() || !metasrv_.recovered()) {
      continue;
    }
    const auto* slot = metasrv_.procedures().Find(ProcedureId{ddl.procedure});
    if (slot == nullptr) {
      ddl.status = DdlStatus::kFailed;
      ddl.error = "procedure lost in a metasrv crash";
    } else if (slot->status == ProcedureStatus::kDone) {
      ddl.status = DdlStatus::kDone;
    } else if (slot->status == ProcedureStatus::kFailed) {
      ddl.status = DdlStatus::kFailed;
      ddl.error = slot->error;
    } else {
      continue;
    }
    ddl.end_step = step.step;
    ddl.end = step.now;
    step.Log(metasrv_id().value, "ddl_done",
             "id=" + std::to_string(ddl.id) +
                 (ddl.status == DdlStatus::kDone ? " done" : " failed: " + ddl.error));
  }
}

void Cluster::Flush(NodeContext& ctx, sim::StepContext& step) {
  for (Outgoing& out : ctx.outbox) {
    if (!message_rules_.empty() && InterceptMessage(ctx.self, out, step)) continue;
    if (MaybeLeaseGap(ctx.self, out, step)) continue;
    Transmit(ctx.self, std::move(out), sim::Duration{0}, step);
  }
  ctx.outbox.clear();
  if (ctx.crashed) CrashNode(ctx.self, step);
}

void Cluster::CrashNode(NodeId node, sim::StepContext& step) {
  step.Log(node.value, "crash", NodeName(node));
  if (node == metasrv_id()) {
    if (!metasrv_.is_up()) return;
    metasrv_.Crash();
  } else if (IsDatanode(node)) {
    Datanode& dn = mutable_datanode(node);
    if (!dn.is_up()) return;
    dn.Crash();
  } else {
    Frontend& fe = frontends_[node.value - 1 - config_.datanode_count];
    if (!fe.is_up()) return;
    NodeContext ctx(node, step, protocol_, history_);
    fe.Crash(ctx);
  }
  network_.DropNode(node.value);
  DropHeldMessages(node);
}

void Cluster::RestartNode(NodeId node, sim::StepContext& step) {
  step.Log(node.value, "restart", NodeName(node));
  if (!network_.IsDown(node.value)) return;
  network_.RestoreNode(node.value);
  if (node == metasrv_id()) {
    // Leader start: heartbeats are served at once, procedures are recovered after the window.
    sim::Duration window{0};
    const sim::Duration window_max = config_.node_faults.leader_start_ms_max;
    if (window_max.ms > 0) {
      REPARTSIM_ASSERT(window_max.ms < int64_t{0xffffffff});
      window = sim::Ms(step.chooser.Choose("net.leader_start_ms",
                                           static_cast<uint32_t>(window_max.ms) + 1));
    }
    sim::Status status = metasrv_.Restart(step.now, window);
    REPARTSIM_ASSERT_MSG(status.ok(), "metasrv recovery failed on its own records");
    if (window.ms > 0) {
      step.Log(node.value, "ms.leader_start",
               "procedures recovered at " + std::to_string((step.now + window).ms));
    }
    UpdateDdlOutcomes(step);
    // Frontends reconnect their heartbeat streams; datanodes do at their next heartbeat.
    for (const Frontend& fe : frontends_) {
      if (fe.is_up()) network_.OpenStream(node.value, fe.id().value);
    }
  } else if (IsDatanode(node)) {
    Datanode& dn = mutable_datanode(node);
    dn.Reopen(object_store_, protocol_);
    next_heartbeat_[DatanodeIndex(node)] = step.now;
  } else {
    frontends_[node.value - 1 - config_.datanode_count].Restart();
    if (metasrv_.is_up()) network_.OpenStream(metasrv_id().value, node.value);
  }
}

bool Cluster::Idle() const {
  return !metasrv_.procedures().HasActive() && ops_.empty() && network_.Pending().empty() &&
         held_.empty() && armed_.empty();
}

uint64_t Cluster::Fingerprint() const {
  sim::Hasher h;
  h.Add(protocol_.bits()).Add(now_.ms);
  metasrv_.Hash(h);
  for (const Datanode& dn : datanodes_) dn.Hash(h);
  for (const Frontend& fe : frontends_) fe.Hash(h);
  object_store_.Hash(h);
  network_.Fingerprint(h, [](sim::Hasher& hh, const Message& m) { HashMessage(hh, m); });
  ops_.Fingerprint(h, [](sim::Hasher& hh, const ScheduledOp& op) { HashScheduledOp(hh, op); });
  for (sim::SimTime t : next_heartbeat_) h.Add(t.ms);
  for (sim::SimTime t : paused_until_) h.Add(t.ms);
  history_.Hash(h);
  h.Add(static_cast<uint64_t>(message_rules_.size()));
  for (const ActiveRule& r : message_rules_) {
    HashMessageRule(h, r.rule);
    h.Add(r.matched);
  }
  h.Add(static_cast<uint64_t>(held_.size()));
  for (const HeldMessage& m : held_) {
    h.Add(m.from.value).Add(m.out.to.value).Add(m.until_state).Add(static_cast<uint64_t>(m.rule));
    h.Add(m.release_delay.ms).Add(m.release_at ? m.release_at->ms : int64_t{-1});
    h.Add(m.head_of_line);
    HashMessage(h, m.out.message);
  }
  h.Add(static_cast<uint64_t>(armed_.size()));
  for (const ArmedOp& a : armed_) {
    h.Add(a.state).Add(a.occurrence).Add(a.delay.ms).Add(a.due ? a.due->ms : int64_t{-1});
    HashScheduledOp(h, a.op);
  }
  for (const auto& [state, times] : passed_) h.Add(state).Add(times);
  h.Add(track_states_);
  return h.Finish();
}

}  // namespace repartsim::model
