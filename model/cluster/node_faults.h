// NodeFaults: random faults of nodes rather than links, and the choices that decide them. Every
// decision is a Chooser choice labelled "net.*", so the liveness phase (which answers every
// "net.*" choice no) has none of them. The cluster acts on what these functions decide
// (cluster_faults.cc, cluster_transport.cc).
#pragma once

#include <optional>

#include "sim/chooser.h"
#include "sim/ratio.h"
#include "sim/time.h"

namespace repartsim::model {

struct NodeFaults {
  // At a heartbeat tick a datanode pauses (GC pause, stalled runtime) with this ratio for
  // 1 + Choose("net.pause_ms", max) ms: it handles no message and fires no timer meanwhile.
  sim::Ratio pause = sim::Ratio::Never();
  sim::Duration pause_ms_max{0};
  // The metasrv's heartbeat handler chain computes a lease reply from the route, then runs
  // more handlers before it pushes the reply (RegionLeaseHandler, then the remaining handlers,
  // then tx.send): with this ratio the push comes 1 + Choose("net.lease_gap_ms", max) ms
  // later. Instructions pushed meanwhile go first on the stream; the session handles no
  // further message of that datanode until the reply is pushed.
  sim::Ratio lease_gap = sim::Ratio::Never();
  sim::Duration lease_gap_ms_max{0};
  // After a metasrv restart, heartbeats are served Choose("net.leader_start_ms", max + 1) ms
  // before procedures are recovered (the leader-start window).
  sim::Duration leader_start_ms_max{0};
  // When a datanode reopens its regions (a restart, or a retry of a failed open), each WAL
  // entry it replays fails to apply with this ratio (Chance "net.replay_fail"; ReplayFaults).
  sim::Ratio replay_fail = sim::Ratio::Never();
  // At a heartbeat tick a datanode compacts the files of each of its writable regions that
  // has two or more and flushed since its last compaction, with this ratio (Chance
  // "net.compact"): GreptimeDB's background compaction, which a flush schedules, at times the
  // run chooses.
  sim::Ratio compact = sim::Ratio::Never();
  // A RemapManifest read of a region whose manifest checkpoint is running loses a delta with
  // this ratio (Chance "net.checkpoint_race", drawn by the datanode; Datanode::
  // ConfigureCheckpoints).
  sim::Ratio checkpoint_race = sim::Ratio::Never();
  // At a datanode's heartbeat tick the metasrv's GC scheduler runs a pass with this ratio
  // (Chance "net.gc"): GreptimeDB's periodic GC, at times the run chooses.
  sim::Ratio gc = sim::Ratio::Never();
  // At a datanode's heartbeat tick the metasrv's region rebalancer migrates a random region to
  // a random other datanode with this ratio (Chance "net.migrate"; Metasrv::
  // RebalanceRandomRegion): GreptimeDB Enterprise's Autopilot Region Balancer [inferred].
  sim::Ratio migrate = sim::Ratio::Never();
};

// How long a datanode at its heartbeat tick pauses (at least 1 ms), or nullopt: it does not.
// Draws nothing when pauses are off.
std::optional<sim::Duration> ChoosePause(const NodeFaults& faults, sim::Chooser& chooser);
// How long the metasrv's handler chain keeps a lease reply before the push (at least 1 ms),
// or nullopt: it pushes at once. Draws nothing when lease gaps are off.
std::optional<sim::Duration> ChooseLeaseGap(const NodeFaults& faults, sim::Chooser& chooser);
// Whether a WAL entry being replayed fails to apply. Draws nothing when the fault is off.
bool ChooseReplayFailure(const NodeFaults& faults, sim::Chooser& chooser);
// Whether a datanode compacts its regions at this heartbeat tick. Draws nothing when off.
bool ChooseCompaction(const NodeFaults& faults, sim::Chooser& chooser);
// Whether the metasrv runs a GC pass at this heartbeat tick. Draws nothing when off.
bool ChooseGc(const NodeFaults& faults, sim::Chooser& chooser);
// Whether the metasrv's rebalancer migrates a region at this heartbeat tick. Draws nothing
// when off.
bool ChooseRebalance(const NodeFaults& faults, sim::Chooser& chooser);
// The leader-start window of a metasrv restart, in [0, leader_start_ms_max]; 0 without a draw
// when the window is off.
sim::Duration ChooseLeaderStartWindow(const NodeFaults& faults, sim::Chooser& chooser);

}  // namespace repartsim::model
