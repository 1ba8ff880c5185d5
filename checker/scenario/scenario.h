// Scenario: one validated YAML scenario (format in scenarios/README.md), as plain data the
// runner turns into a Cluster run. Every field is checked by the loader (loader.h): SQL is
// parsed, node and frontend references resolved, rule switches and crash sites known, ratios
// exact. Times are virtual milliseconds from the start of the run. The safety phase ends at
// limits.time_ms_max; the liveness phase then gets limits.liveness_ms more.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/cluster/scheduled_op.h"
#include "model/partition/rule.h"
#include "model/partition/schema.h"
#include "model/sql/statement.h"
#include "sim/ratio.h"
#include "sim/result.h"
#include "sim/scripted_chooser.h"

namespace repartsim::scenario {

inline constexpr uint32_t kTableIdValue = 1024;

// A scripted action at a virtual time, or `at_ms` after the `occurrence`-th time a procedure
// passes `after_state` ("Type.State", see model::Cluster::ScheduleAfterState).
struct ScriptedStep {
  int64_t at_ms = 0;
  model::ScheduledOp op;
  sim::SourceLocation location;  // the step's YAML mapping, for reports
  std::string after_state;       // empty: at_ms is a virtual time
  uint32_t occurrence = 1;
};

// One column's value domain for the random workload. Integer-like columns draw uniformly in
// [min, max]; string columns pick one of `strings`; `nulls` adds NULL with that ratio.
struct ColumnDomain {
  int64_t min = 0;
  int64_t max = 99;
  std::vector<std::string> strings;
  sim::Ratio null = sim::Ratio::Never();
};

enum class QueryShape : uint8_t { kAll, kCount, kPoint, kRange };
const char* QueryShapeName(QueryShape shape);

struct Workload {
  bool enabled = false;
  uint32_t writers_per_frontend = 0;
  uint32_t readers_per_frontend = 0;
  uint32_t frontend_count = 0;  // the first N frontends run it; 0: every frontend
  int64_t start_ms = 2000;
  int64_t end_ms = 0;  // 0: the end of the safety phase
  int64_t write_interval_ms = 200;
  int64_t read_interval_ms = 500;
  uint32_t rows_per_write_max = 3;          // each insert carries 1..max rows
  sim::Ratio bulk = sim::Ratio::Never();    // share of inserts through the pending-rows batcher
  sim::Ratio flight = sim::Ratio::Never();  // share of the others through the Flight bulk insert
  std::map<std::string, ColumnDomain> columns;  // by column name; others use type defaults
  std::vector<QueryShape> queries = {QueryShape::kAll};
};

// Random faults of the safety phase. The network is gRPC's: unary calls (frontend writes,
// scans, route fetches, CreateRegion/DropRegion RPCs) may be dropped or delayed one by one;
// each node's heartbeat stream with the metasrv is ordered, so a delay holds its head of line,
// and it loses messages only by a reset (everything in flight both ways). No message is ever
// duplicated by the network: copies come only from application retries.
struct Faults {
  sim::Ratio drop = sim::Ratio::Never();   // per unary call (request or reply)
  sim::Ratio delay = sim::Ratio::Never();  // per message (calls and streams)
  int64_t delay_ms_max = 0;
  int64_t latency_ms = 1;
  sim::Ratio reset = sim::Ratio::Never();  // per stream message: the stream resets
  // A datanode pauses (GC pause, stalled runtime) at a heartbeat tick with this ratio, for
  // 1..pause_ms_max ms: it handles nothing and sends nothing meanwhile.
  sim::Ratio pause = sim::Ratio::Never();
  int64_t pause_ms_max = 0;
  // The metasrv's heartbeat handler chain reads the route, then runs more handlers before it
  // pushes the reply: with this ratio a reply is pushed 1..lease_gap_ms_max ms after it was
  // computed; instructions pushed meanwhile go first on the stream.
  sim::Ratio lease_gap = sim::Ratio::Never();
  int64_t lease_gap_ms_max = 0;
  // After a metasrv restart, heartbeats are served 0..leader_start_ms_max ms before procedures
  // are recovered (the leader-start window).
  int64_t leader_start_ms_max = 0;
  // Each WAL entry a datanode replays when it reopens its regions fails to apply with this
  // ratio (GreptimeDB #8809; what follows depends on fail-closed-replay).
  sim::Ratio replay_fail = sim::Ratio::Never();
  // At each heartbeat tick a datanode compacts the files of its writable regions with this
  // ratio (background work, not a fault; decided as one so the liveness phase has none).
  sim::Ratio compact = sim::Ratio::Never();
  // A RemapManifest read of a region whose manifest checkpoint is running loses a delta the
  // checkpoint deletes with this ratio (GreptimeDB #8625; fence-checkpoints).
  sim::Ratio checkpoint_race = sim::Ratio::Never();
  // At each datanode heartbeat tick the metasrv runs a GC pass with this ratio (not a fault;
  // decided as one so the liveness phase has none).
  sim::Ratio gc = sim::Ratio::Never();
  // At each datanode heartbeat tick the metasrv's region rebalancer migrates a random region
  // (new regions included) to a random other datanode with this ratio.
  sim::Ratio migrate = sim::Ratio::Never();
  sim::Ratio crash = sim::Ratio::Never();                    // default ratio of every crash site
  std::map<std::string, sim::Ratio> crash_sites;             // per-site overrides
  std::optional<std::pair<std::string, uint64_t>> crash_at;  // scripted: site, hit number
  int64_t restart_after_ms = 2000;  // nodes felled by a crash point come back after this
  // Swarm mode: each seed keeps each fault kind with probability 1/2 (FDB/TigerBeetle swarm).
  bool swarm = false;
  // Scripted decisions (a counterexample of explore or shrink): when set, the run draws
  // nothing; these decisions get their value and every other one the default (no fault).
  std::vector<sim::ScriptedDecision> decisions;
};

struct Limits {
  uint64_t steps_max = 200000;
  int64_t time_ms_max = 30000;  // end of the safety phase
  int64_t liveness_ms = 30000;  // budget of the liveness phase after faults heal
  int64_t settle_ms = 12000;    // minimum liveness time (leases renew) before quiescence
};

// What a run is expected to give under one profile: pass, or a report naming `invariant`,
// plus the invariants the scenario may also show (`tolerate`, e.g. INV-LIVE when a crash
// leaves a procedure stuck). Any other invariant a run reports is unexpected and fails the
// run's expectation and the sweep; READ-ANOMALY is always tolerated (it does not fail a run).
struct Expectation {
  bool pass = true;
  std::string invariant;              // "INV-NOOMIT", ..., "READ-ANOMALY" when !pass
  std::vector<std::string> tolerate;  // invariant names, sorted, without `invariant`
  sim::SourceLocation location;
  // "pass" or "violation: INV-X"; with tolerated invariants " (tolerates INV-A, INV-B)".
  std::string ToString() const;
  // True iff a run may report `name` under this expectation: the expected invariant, a
  // tolerated one, or READ-ANOMALY.
  bool Allows(const std::string& name) const;
};

// A per-rule expectation (`expect.with_rules`): what runs give under `profile` with `rules`
// applied on top of the scenario's own `rules:`, e.g. the reference profile with one safety
// switch off (the scenario then documents which mechanism it guards, `repartsim mutants`).
struct RuleExpectation {
  std::string profile = "reference";
  std::vector<std::pair<std::string, bool>> rules;  // in file order
  std::string overrides;  // the resulting switches vs `profile` (Protocol::OverridesText)
  Expectation expectation;
  // `seeds: A..B` (inclusive, inside the scenario's `seeds`): the seeds the bundled-scenario
  // test checks this entry on, for a switch whose absence shows only at a later seed; nullopt:
  // the scenario's first three seeds.
  std::optional<std::pair<uint64_t, uint64_t>> seeds;
  // `found_by: explore`: exploring the scenario (its first seed) with these rules finds a run
  // that meets the entry, where random seeds seldom draw it. Runs and sweeps then only tolerate
  // the entry's violation (ExpectationFor), and the bundled-scenario test explores.
  bool by_explore = false;
};

// The state budget behind `found_by: explore`: the bundled-scenario test explores an entry's
// first seed with this many states, and `repartsim mutants` explores the scenarios tagged
// explore with it by default, so an entry found by explore is found within the mutants budget.
inline constexpr uint64_t kFoundByExploreStates = 20000;

struct Scenario {
  std::string path;  // the YAML file
  std::string name;
  std::string description;
  std::vector<std::string> tags;
  // `shape: swarm`: the table, setup, steps, workload, faults and cluster are drawn per seed
  // (swarm_shape.h); the file's own are what `plan` and `check-rule` read.
  bool shape_swarm = false;
  // `shape_only: {feature: [values]}`: each listed feature draws only among these values
  // (where the shape allows them), so one file covers a region of the feature space.
  std::map<std::string, std::vector<std::string>> shape_only;
  std::string profile = "reference";
  std::vector<std::pair<std::string, bool>> rules;  // overrides, in file order
  uint32_t datanode_count = 3;
  uint32_t frontend_count = 2;
  std::vector<uint32_t> placement;  // datanode index per initial region
  // `cluster.gc: false`: metasrv GC is disabled, so the frontend refuses every repartition
  // ("Repartition requires metasrv GC to be enabled").
  bool gc_enabled = true;
  // `cluster.checkpoint_distance`: a region's manifest is checkpointed every this many
  // versions (GreptimeDB's manifest_checkpoint_distance, default 10; 0 = never).
  uint64_t checkpoint_distance = 10;
  // `cluster.gc_lingering_ms`: GC keeps a file a compaction removed this long (GreptimeDB's
  // lingering_time, one hour by default).
  int64_t gc_lingering_ms = 3'600'000;
  // `cluster.gc_interval_ms`: the metasrv runs a GC pass every this long (0: none; passes then
  // come from `gc: true` steps and faults.gc).
  int64_t gc_interval_ms = 0;
  // `cluster.init_regions_in_background`: a restarted datanode serves at once and opens its
  // regions one at a time, one every `cluster.region_open_ms` (GreptimeDB's option; false, its
  // default: every region opens before the datanode serves).
  bool init_regions_in_background = false;
  int64_t region_open_ms = 500;
  model::sql::CreateTable table;
  std::string table_sql;
  std::vector<ScriptedStep> setup;  // run at 1000 + 10 * i ms
  std::vector<ScriptedStep> steps;
  std::vector<uint32_t> stale_frontends;  // frontends that keep a stale cache (runner arms)
  Workload workload;
  Faults faults;
  Limits limits;
  uint64_t seed_first = 0;
  uint64_t seed_last = 19;                    // default seed range for sweeps and tests, inclusive
  sim::SourceLocation seeds_location;         // of the `seeds:` value; no file when defaulted
  std::map<std::string, Expectation> expect;  // by profile name
  std::vector<RuleExpectation> rule_expect;   // expect.with_rules, in file order

  model::TableId table_id() const { return model::TableId{kTableIdValue}; }
  // The expectation for `profile`, or nullopt when the scenario states none.
  std::optional<Expectation> ExpectationFor(const std::string& profile_name) const;
  // The expectation for a run under `profile_name` whose switches differ from that profile by
  // `overrides` (Protocol::OverridesText, as RunReport::rules): the with_rules entry of that
  // profile with the same overrides (an entry found by explore with its violation only
  // tolerated), else ExpectationFor(profile_name).
  std::optional<Expectation> ExpectationFor(const std::string& profile_name,
                                            const std::string& overrides) const;
  // The expect.with_rules entry of `profile_name` with exactly `overrides`, or nullptr.
  const RuleExpectation* RuleExpectationFor(const std::string& profile_name,
                                            const std::string& overrides) const;
  // The overrides text of a run under `profile_name` with the scenario's rules and then
  // `extra` applied ("" when a name or the profile is unknown: the run itself reports that).
  std::string OverridesFor(const std::string& profile_name,
                           const std::vector<std::pair<std::string, bool>>& extra) const;
};

}  // namespace repartsim::scenario
