#include "checker/run/cluster_setup.h"

namespace repartsim::run {

sim::Result<model::Protocol> BuildProtocol(const scenario::Scenario& s, const RunConfig& config) {
  auto protocol = model::Protocol::FromProfileName(config.profile.value_or(s.profile));
  if (!protocol.ok()) return protocol.error();
  model::Protocol p = protocol.value();
  for (const auto& list : {s.rules, config.rules}) {
    for (const auto& [name, on] : list) {
      sim::Status status = p.SetByName(name, on);
      if (!status.ok()) return status.error();
    }
  }
  return p;
}

sim::CrashPlan BuildCrashPlan(const scenario::Faults& f) {
  sim::CrashPlan plan(f.crash);
  for (const auto& [site, ratio] : f.crash_sites) plan.SetSite(site, ratio);
  if (f.crash_at) plan.Script(f.crash_at->first, f.crash_at->second);
  return plan;
}

model::ClusterConfig ClusterConfigOf(const scenario::Scenario& s, const scenario::Faults& faults) {
  model::ClusterConfig cluster_config;
  cluster_config.datanode_count = s.datanode_count;
  cluster_config.frontend_count = s.frontend_count;
  cluster_config.gc_enabled = s.gc_enabled;
  cluster_config.checkpoint_distance = s.checkpoint_distance;
  cluster_config.gc_lingering = sim::Ms(s.gc_lingering_ms);
  cluster_config.gc_interval = sim::Ms(s.gc_interval_ms);
  cluster_config.init_regions_in_background = s.init_regions_in_background;
  cluster_config.region_open = sim::Ms(s.region_open_ms);
  cluster_config.faults.drop = faults.drop;
  cluster_config.faults.delay = faults.delay;
  cluster_config.faults.delay_ms_max = sim::Ms(faults.delay_ms_max);
  cluster_config.faults.latency = sim::Ms(faults.latency_ms);
  cluster_config.faults.reset = faults.reset;
  cluster_config.node_faults.pause = faults.pause;
  cluster_config.node_faults.pause_ms_max = sim::Ms(faults.pause_ms_max);
  cluster_config.node_faults.lease_gap = faults.lease_gap;
  cluster_config.node_faults.lease_gap_ms_max = sim::Ms(faults.lease_gap_ms_max);
  cluster_config.node_faults.replay_fail = faults.replay_fail;
  cluster_config.node_faults.compact = faults.compact;
  cluster_config.node_faults.checkpoint_race = faults.checkpoint_race;
  cluster_config.node_faults.gc = faults.gc;
  cluster_config.node_faults.migrate = faults.migrate;
  cluster_config.node_faults.leader_start_ms_max = sim::Ms(faults.leader_start_ms_max);
  return cluster_config;
}

}  // namespace repartsim::run
