// Cluster: the whole simulated database as ONE value type (copy = snapshot) implementing the
// sim::Model concept: one metasrv (node 0), datanodes (nodes 1..D), frontends (nodes
// D+1..D+F), the shared object store, the network of Messages, the client-op queue and the
// run's History. Every event is plain data derived from this state (deliveries, procedure
// wake-ups, heartbeats, lease expiries, request timeouts, scheduled client ops), so the same
// model runs under the timed driver, the untimed driver and exhaustive search. All timing,
// message and fault decisions go through the step's Chooser; rule switches come from
// `protocol`. Fingerprint() covers every piece of state that affects future behaviour.
// The cluster only wires: each node answers its own messages (Metasrv, Datanode, Frontend
// ::OnMessage), and the rooms below it own their state and decisions: held_messages.h (what
// the cluster keeps back and when it goes), fault_script.h (scripted message rules, ops armed
// on procedure states), ownership_probe.h (INV-OWN at acceptance, handed to the datanodes).
// Files: cluster.cc (event selection, delivery, crash and restart, fingerprint),
// cluster_ops.cc (the op queue and client statements), cluster_nodes.cc (node ids and names),
// cluster_transport.cc (channels, streams, sending held messages), cluster_faults.cc (acting
// on scripted and random node faults).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "model/cluster/fault_script.h"
#include "model/cluster/held_messages.h"
#include "model/cluster/node_faults.h"
#include "model/cluster/scheduled_op.h"
#include "model/datanode/datanode.h"
#include "model/datanode/object_store.h"
#include "model/frontend/frontend.h"
#include "model/metasrv/metasrv.h"
#include "model/node/history.h"
#include "model/node/message.h"
#include "model/node/node_context.h"
#include "model/protocol/protocol.h"
#include "sim/event_queue.h"
#include "sim/network.h"
#include "sim/simulation.h"

namespace repartsim::model {

struct ClusterConfig {
  uint32_t datanode_count = 3;
  uint32_t frontend_count = 2;
  sim::Duration heartbeat_interval = sim::Seconds(3);
  // Link faults: calls may be dropped or delayed one by one; each node's heartbeat stream with
  // the metasrv is FIFO (a delay holds its head of line) and loses messages only by a reset.
  sim::FaultProfile faults;
  NodeFaults node_faults;
  bool gc_enabled = true;  // repartition is refused when metasrv GC is disabled
  // Manifest checkpoint distance of every datanode (Datanode::ConfigureCheckpoints; 0 = none).
  uint64_t checkpoint_distance = 10;
  // GC keeps a file a compaction removed from a manifest this long (GreptimeDB: one hour).
  sim::Duration gc_lingering = sim::Seconds(3600);
  // The metasrv's GC scheduler runs a pass every this long (0: only steps and NodeFaults::gc),
  // checked when a datanode's heartbeat tick comes.
  sim::Duration gc_interval{0};
  // GreptimeDB's init_regions_in_background: a restarted datanode heartbeats and serves at once
  // and opens its hosted regions one at a time, one every `region_open` (false: every region
  // opens before it serves anything, GreptimeDB's default).
  bool init_regions_in_background = false;
  sim::Duration region_open = sim::Ms(500);
  MetasrvConfig metasrv;
  FrontendConfig frontend;
};

class Cluster final : public StreamLinks {
 public:
  enum EventKind : uint32_t {
    kDeliver = 1,
    kProcedure,
    kHeartbeat,
    kLeaseExpiry,
    kFrontendTimer,
    kMetasrvTimer,
    kScheduledOp,  // a client statement or fault action due on the op queue
    kArmedOp,      // a step armed on a procedure state, due `delay` after the state passed
    kHeldRelease,  // a held message (lease gap, hold released `ms` after its state) is due
    kRegionOpen,   // a restarted datanode opens its next region (init_regions_in_background)
  };

  Cluster(ClusterConfig config, Protocol protocol);

  // ---- sim::Model -------------------------------------------------------------------------
  void Enabled(std::vector<sim::EnabledEvent>& out) const;
  // The event sim::EarliestEvent would pick from Enabled(), found from the head of each
  // source (the timed driver's fast path); false when nothing is enabled.
  bool Earliest(sim::EnabledEvent& best) const;
  void Fire(const sim::EnabledEvent& event, sim::StepContext& step);
  uint64_t Fingerprint() const;
  // The data the cluster holds: every datanode's regions (versions, memtable contents, WAL)
  // and the object store (files by content, manifests, staging actions). Two runs that end
  // with different rows anywhere differ here; the runner logs it as the trace's last line.
  uint64_t DataFingerprint() const;

  // ---- scheduling -------------------------------------------------------------------------
  // Schedules a client statement or fault action at virtual time `at`.
  void Schedule(sim::SimTime at, ScheduledOp op);
  // Arms `op` to be scheduled `delay` after the `occurrence`-th time (1-based) a procedure
  // passes `state` ("Type.State", e.g. "RepartitionGroup.EnterStagingRegion"): a step that
  // began in that state ended in another one, or ended the procedure. With no delay the op
  // runs in that same step, right after the procedure's own messages were sent (a crash then
  // lands before anything else happens). Steps still armed when the safety phase ends are
  // dropped.
  void ScheduleAfterState(std::string state, uint32_t occurrence, sim::Duration delay,
                          ScheduledOp op);
  // Schedules a statement of the scenario's own client (setup and scripted SQL) at `at`. That
  // client issued CREATE TABLE first and waits for its answer: a statement due while the
  // CREATE TABLE procedure is still running is held (trace `op.wait_create`), and the held
  // ones run, in order and 10 ms apart, once it ended (`op.release_script`). A fault action
  // is scheduled as with Schedule.
  void ScheduleScriptOp(sim::SimTime at, ScheduledOp op);
  // Reserves `n` consecutive op-queue seqs (the first is returned) for ScheduleReserved: an op
  // scheduled later with one of them runs among the ops due at its time as if it had been
  // scheduled at the reservation. The runner feeds its workload so, one statement per stream.
  uint64_t ReserveOpSeqs(uint64_t n) { return ops_.Reserve(n); }
  void ScheduleReserved(sim::SimTime at, uint64_t seq, ScheduledOp op) {
    ops_.PushReserved(at, seq, std::move(op));
  }
  // Scheduled ops not yet run (client statements and fault actions in the op queue).
  size_t scheduled_ops() const { return ops_.size(); }
  // How many scheduled ops have been taken off the queue to run, and the seq of the last one.
  uint64_t ops_taken() const { return ops_taken_; }
  uint64_t last_op_seq() const { return last_op_seq_; }
  // Round-robin placement of `rule`'s regions (region i on datanode i mod D) for CREATE TABLE.
  CreateTableOp PlanCreateTable(TableId table, const TableSchema& schema, const PartitionRule& rule,
                                const std::vector<uint32_t>& placement = {}) const;

  // ---- node ids ---------------------------------------------------------------------------
  NodeId metasrv_id() const { return NodeId{0}; }
  NodeId datanode_id(uint32_t index) const { return NodeId{1 + index}; }
  NodeId frontend_id(uint32_t index) const { return NodeId{1 + config_.datanode_count + index}; }
  bool IsDatanode(NodeId node) const;
  bool IsFrontend(NodeId node) const;

  // ---- state ------------------------------------------------------------------------------
  const Metasrv& metasrv() const { return metasrv_; }
  Metasrv& mutable_metasrv() { return metasrv_; }
  const Datanode& datanode(NodeId node) const;
  Datanode& mutable_datanode(NodeId node);
  // REQUIRES: IsFrontend(node).
  Frontend& mutable_frontend(NodeId node);
  const Frontend& frontend(uint32_t index) const { return frontends_[index]; }
  const ObjectStore& object_store() const { return object_store_; }
  const History& history() const { return history_; }
  // For the checker's retention only (checker/run/history_retention.h): it packs, releases and
  // retires records it has judged, and never changes what the model reads.
  History& history_for_retention() { return history_; }
  const Protocol& protocol() const { return protocol_; }
  const ClusterConfig& config() const { return config_; }
  const sim::Network<Message>& network() const { return network_; }
  sim::Network<Message>& mutable_network() { return network_; }
  uint32_t node_count() const { return 1 + config_.datanode_count + config_.frontend_count; }
  // True iff no procedure is active, no client op is queued, no message is in flight and no
  // restarted datanode still opens its regions in the background.
  bool Idle() const;
  // Messages kept back by scripted hold/reorder rules.
  size_t held_message_count() const { return held_.size(); }
  // Node name for traces and reports: "metasrv", "dn1", "fe1".
  std::string NodeName(NodeId node) const;

 private:
  // Calls emit(at, seq, node, kind, ref) for every enabled event, in the order Enabled()
  // lists them; with `every_op` false only the head of the op queue (Earliest's fast path:
  // the queue is in (at, seq) order and its events all carry seq 0).
  template <class Emit>
  void ForEachEnabled(bool every_op, Emit&& emit) const;
  void DeliverMessage(size_t index, sim::StepContext& step);
  // ---- transport ----------------------------------------------------------------------------
  // Sends `out` from `from` on its channel (ChannelOf): a stream message queues behind a
  // message of the same directed stream that a hold keeps back (unless `behind_held` is
  // false), and a datanode or frontend end reopens its stream after a reset (it reconnects).
  void Transmit(NodeId from, Outgoing out, sim::Duration extra, sim::StepContext& step,
                bool behind_held = true);
  // The stream between the metasrv and `a`/`b` was reset: held messages of it are lost, a
  // datanode reconnects with a heartbeat now, a frontend reconnects at once.
  void OnStreamReset(NodeId a, NodeId b, sim::StepContext& step);
  // Random handler-chain gap: true iff the HeartbeatReply `out` is held for a later push.
  bool MaybeLeaseGap(NodeId from, Outgoing& out, sim::StepContext& step);
  // True iff a HeartbeatReply for datanode `dn` is computed but not pushed yet: its heartbeat
  // session handles nothing else meanwhile (HeartbeatSession runs the handler chain, then
  // tx.send, before it reads the next request).
  bool SessionBusy(NodeId dn) const { return held_.ReplyHeld(metasrv_id(), dn); }
  // StreamLinks: the stream between `a` and `b` is open and both are up (the metasrv has a
  // pusher for the datanode).
  bool StreamConnected(NodeId a, NodeId b) const override;
  void ReleaseHeld(size_t index, sim::StepContext& step);
  // Traces what the network's latest Send decided for `out` (a loss, a duplicate, extra
  // delays) and every message a reset or crash took out of flight (`net.lost`).
  void TraceSend(NodeId from, NodeId to, const char* kind, sim::StepContext& step);
  void TraceLost(std::string_view cause, sim::StepContext& step);
  // `net.lost` for a message kept back by a hold or a lease gap that a reset or crash lost.
  void TraceLostHeld(NodeId from, const Outgoing& out, std::string_view cause,
                     sim::StepContext& step);
  // `ms.state`: procedure `id` moved from state `before` (status `status_before`) to where it
  // is now; nothing when neither changed.
  void TraceProcedureState(ProcedureId id, const std::string& before, int status_before,
                           sim::StepContext& step);
  // Takes the held messages at `indices` out and sends them in held order.
  void SendHeld(std::vector<size_t> indices, const std::string& why, sim::StepContext& step);
  sim::SimTime PausedUntil(NodeId node) const { return paused_until_[node.value]; }
  // ---- the op queue and client statements (cluster_ops.cc) -----------------------------------
  void RunScheduledOp(size_t index, sim::StepContext& step);
  // True iff the scenario's CREATE TABLE has not ended for its client: the call is outstanding,
  // or it broke and the procedure runs (or, the metasrv down or recovering, its records
  // survive without a commit).
  bool CreateTableInProgress() const;
  // Schedules the held script statements once CREATE TABLE ended (ScheduleScriptOp).
  void MaybeReleaseScript(sim::StepContext& step);
  void FireEvent(const sim::EnabledEvent& event, sim::StepContext& step);
  void ExecuteOp(ScheduledOp& op, sim::StepContext& step);
  void RunStatement(ClientStatement& statement, sim::StepContext& step);
  // A repartition statement: its DdlRecord, then the frontend's StartRepartition (or Rejected
  // when the frontend is down).
  void StartRepartition(const RepartitionOp& op, sim::StepContext& step);
  // ---- delivery, crash and restart (cluster.cc) ------------------------------------------------
  // Sends the outbox through the network and crashes the node if a crash point fired.
  void Flush(NodeContext& ctx, sim::StepContext& step);
  void CrashNode(NodeId node, sim::StepContext& step);
  // ---- faults (cluster_faults.cc) --------------------------------------------------------------
  void RunFaultAction(FaultAction& action, sim::StepContext& step);
  // Compacts one region, or every writable region of every running datanode (CompactOp).
  void Compact(const CompactOp& op, sim::StepContext& step);
  // A `migrate:` step: submits the migration to the metasrv when it is up and recovered,
  // else logs `ms.migrate_refused` (the ADMIN call would fail).
  void SubmitMigration(const MigrateRegionOp& op, sim::StepContext& step);
  // The metasrv's region rebalancer (NodeFaults::migrate): nothing while the metasrv is down
  // or recovering.
  void Rebalance(sim::StepContext& step);
  // Compacts `region` on `dn` (`dn.compact` logged): false iff a crash point fired.
  bool CompactRegion(Datanode& dn, RegionId region, sim::StepContext& step);
  // Compacts each writable region of `dn` that has two or more files: false iff a crash point
  // fired (the datanode is down).
  // kAutomatic: the background scheduler, only regions a flush asked to compact; kManual: a
  // compact step (ADMIN compact_table), every writable region with two or more files.
  enum class Compaction { kAutomatic, kManual };
  bool CompactRegionsOf(Datanode& dn, Compaction kind, sim::StepContext& step);
  // Flushes `region` on `dn` (a scripted flush) and logs `dn.flush`; nothing when dn is down.
  void FlushRegion(Datanode& dn, RegionId region, sim::StepContext& step);
  // Ends the running manifest checkpoints of `dn`'s hosted regions (`dn.checkpoint_done`): a
  // checkpoint runs from the manifest edit that started it to the datanode's next heartbeat
  // tick, or its crash.
  void FinishCheckpoints(const Datanode& dn, sim::StepContext& step);
  // A pass of the metasrv's GC over every table with files (model/gc/gc.h): `ms.gc` per table,
  // `ms.gc_delete` per deleted file. None while GC is disabled or the metasrv is down. A table
  // whose file references cannot all be read fails instead (`ms.gc_failed`): the leader of a
  // route region is down, or has not opened it (Rule::kGcRefsNeedOpenRegions; with the rule
  // off that region's references are left out).
  void RunGcPass(sim::StepContext& step);
  // Asks the leader of each of `route`'s regions for its references (GetFileRefs): the reason
  // the table's pass fails, or nullopt with the regions whose references are left out in
  // `unread`.
  std::optional<std::string> GcReferenceRegions(const TableRoute& route,
                                                std::set<RegionId>& unread) const;
  // A random pause of datanode `node` at its heartbeat tick (NodeFaults::pause): true iff it
  // paused now (paused_until_ set, `net.pause` logged).
  bool MaybePause(NodeId node, sim::StepContext& step);
  // Applies the first active message rule matching `out`; true iff the rule took the message
  // over (dropped, held, or sent itself with its delay/duplicate/reorder).
  bool InterceptMessage(NodeId from, Outgoing& out, sim::StepContext& step);
  // "Type.State" of procedure `id`, or "" when it is gone.
  std::string ProcedureStateName(ProcedureId id) const;
  // A step of procedure `id` that began in `before` ran: fires armed ops and releases held
  // messages if it passed that state.
  void NoteProcedureStep(ProcedureId id, const std::string& before, sim::StepContext& step);
  // The end of the safety phase: rules stop, held messages are sent, armed steps (due or not)
  // are dropped, so no scripted fault outlives the phase.
  void EndScriptedFaults(sim::StepContext& step);
  void ExpireLeasesNow(NodeId node, sim::StepContext& step);
  void DropHeldMessages(NodeId node, sim::StepContext& step);
  void RestartNode(const RestartNodeOp& op, sim::StepContext& step);
  // Opens datanode `dn`'s regions after its restart (`retry` false), or again those whose open
  // failed in WAL replay (true). The first `scripted` entries replayed fail to apply, then
  // NodeFaults::replay_fail decides; each failed entry is logged (`dn.replay_skip`, or
  // `dn.open_failed` under fail-closed-replay), and each region a retry opened (`dn.reopen`).
  void OpenRegionsOf(Datanode& dn, uint32_t* scripted, bool retry, sim::StepContext& step);
  // The next region of a background reopen (kRegionOpen): `dn.open`, or the replay failures.
  void OpenNextRegion(size_t index, sim::StepContext& step);
  // The replay faults of a reopen: the `scripted` failures first (counted down; nullptr: none),
  // then NodeFaults::replay_fail decides; LogReplayFailures logs each failure.
  ReplayFaults ReplayFaultsOf(uint32_t* scripted, sim::StepContext& step);
  void LogReplayFailures(const Datanode& dn, const ReplayFaults& faults, sim::StepContext& step);
  size_t DatanodeIndex(NodeId node) const;

  ClusterConfig config_;
  Protocol protocol_;
  Metasrv metasrv_;
  std::vector<Datanode> datanodes_;
  std::vector<Frontend> frontends_;
  ObjectStore object_store_;
  sim::Network<Message> network_;
  sim::EventQueue<ScheduledOp> ops_;
  std::vector<sim::SimTime> next_heartbeat_;  // per datanode
  // Per datanode: when it last restarted. Its heartbeat at that instant (a restarted datanode
  // reports at once) does not retry the opens that restart failed: GreptimeDB's datanode
  // retries a failed open at a later heartbeat, so the region is seen closed meanwhile.
  std::vector<sim::SimTime> restarted_at_;
  std::vector<sim::SimTime> paused_until_;  // per node id: paused before this time
  sim::SimTime next_gc_{0};  // ClusterConfig::gc_interval: the next periodic GC pass is due
  // Per datanode: scripted replay failures (RestartNodeOp) a background reopen has not used.
  std::vector<uint32_t> scripted_replay_failures_;
  History history_;
  sim::SimTime now_;  // time of the last fired event

  FaultScript script_;  // scripted message rules, ops armed on procedure states
  HeldMessages held_;   // messages kept back (holds, reorders, lease gaps, lines behind them)
  std::set<uint64_t> script_seqs_;           // op-queue seqs of the script's statements
  std::vector<ScheduledOp> waiting_create_;  // script statements held for CREATE TABLE
  std::map<std::string, uint32_t> passed_;   // procedure state -> times passed
  bool track_states_ = false;                // something waits on a procedure state
  // The next trace message id (Outgoing::id). Trace bookkeeping, not state: not fingerprinted.
  uint64_t next_message_id_ = 1;
  // ops_taken(), last_op_seq(): bookkeeping for the runner, not state: not fingerprinted.
  uint64_t ops_taken_ = 0;
  uint64_t last_op_seq_ = 0;
};

}  // namespace repartsim::model
