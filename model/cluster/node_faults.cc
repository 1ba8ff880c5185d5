#include "model/cluster/node_faults.h"

#include <cstdint>

#include "sim/assert.h"

namespace repartsim::model {

namespace {

// 1 + Choose(label, max) ms: a wait of at least 1 ms and at most `max` + 1 ms.
sim::Duration AtLeastOneMs(const char* label, sim::Duration max, sim::Chooser& chooser) {
  REPARTSIM_ASSERT(max.ms > 0 && max.ms <= int64_t{0xffffffff});
  const uint32_t extra = chooser.Choose(label, static_cast<uint32_t>(max.ms));
  return sim::Ms(1 + int64_t{extra});
}

}  // namespace

std::optional<sim::Duration> ChoosePause(const NodeFaults& faults, sim::Chooser& chooser) {
  if (faults.pause_ms_max.ms <= 0 || !chooser.Chance("net.pause", faults.pause)) {
    return std::nullopt;
  }
  return AtLeastOneMs("net.pause_ms", faults.pause_ms_max, chooser);
}

std::optional<sim::Duration> ChooseLeaseGap(const NodeFaults& faults, sim::Chooser& chooser) {
  if (faults.lease_gap_ms_max.ms <= 0 || !chooser.Chance("net.lease_gap", faults.lease_gap)) {
    return std::nullopt;
  }
  return AtLeastOneMs("net.lease_gap_ms", faults.lease_gap_ms_max, chooser);
}

bool ChooseReplayFailure(const NodeFaults& faults, sim::Chooser& chooser) {
  return !faults.replay_fail.IsNever() && chooser.Chance("net.replay_fail", faults.replay_fail);
}

bool ChooseCompaction(const NodeFaults& faults, sim::Chooser& chooser) {
  return !faults.compact.IsNever() && chooser.Chance("net.compact", faults.compact);
}

bool ChooseGc(const NodeFaults& faults, sim::Chooser& chooser) {
  return !faults.gc.IsNever() && chooser.Chance("net.gc", faults.gc);
}

bool ChooseRebalance(const NodeFaults& faults, sim::Chooser& chooser) {
  return !faults.migrate.IsNever() && chooser.Chance("net.migrate", faults.migrate);
}

sim::Duration ChooseLeaderStartWindow(const NodeFaults& faults, sim::Chooser& chooser) {
  const sim::Duration window_max = faults.leader_start_ms_max;
  if (window_max.ms <= 0) return sim::Duration{0};
  REPARTSIM_ASSERT(window_max.ms < int64_t{0xffffffff});
  const uint32_t window =
      chooser.Choose("net.leader_start_ms", static_cast<uint32_t>(window_max.ms) + 1);
  REPARTSIM_ASSERT(int64_t{window} <= window_max.ms);
  return sim::Ms(window);
}

}  // namespace repartsim::model
