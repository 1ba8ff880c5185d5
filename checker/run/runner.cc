#include "checker/run/runner.h"

#include <algorithm>
#include <cstdio>
#include <set>

#include "checker/run/cluster_setup.h"
#include "checker/run/phase_chooser.h"
#include "checker/run/run_check.h"
#include "checker/run/run_story.h"
#include "checker/run/script.h"
#include "checker/run/workload.h"
#include "checker/scenario/crash_sites.h"
#include "checker/scenario/swarm_shape.h"
#include "model/cluster/cluster.h"
#include "model/meta/table_metadata.h"
#include "model/protocol/protocol.h"
#include "sim/assert.h"
#include "sim/fingerprint.h"
#include "sim/simulation.h"

namespace repartsim::run {

namespace {

constexpr sim::Ratio kHalf{1, 2};

// The effective faults of one seed: swarm mode keeps each kind with probability 1/2.
scenario::Faults EffectiveFaults(const scenario::Faults& faults, sim::Prng& swarm) {
  scenario::Faults f = faults;
  if (!f.swarm) return f;
  if (!swarm.Chance(kHalf)) f.drop = sim::Ratio::Never();
  if (!swarm.Chance(kHalf)) f.delay = sim::Ratio::Never();
  if (!swarm.Chance(kHalf)) {
    f.crash = sim::Ratio::Never();
    f.crash_sites.clear();
  }
  // Kinds added after the first four draw after them, so older seeds keep their mix of those.
  if (!swarm.Chance(kHalf)) f.reset = sim::Ratio::Never();
  if (!swarm.Chance(kHalf)) f.pause = sim::Ratio::Never();
  if (!swarm.Chance(kHalf)) f.lease_gap = sim::Ratio::Never();
  if (!swarm.Chance(kHalf)) f.leader_start_ms_max = 0;
  // Drawn only when set, so that the mix of every scenario without it stays as it was.
  if (!f.replay_fail.IsNever() && !swarm.Chance(kHalf)) f.replay_fail = sim::Ratio::Never();
  if (!f.migrate.IsNever() && !swarm.Chance(kHalf)) f.migrate = sim::Ratio::Never();
  return f;
}

std::string FaultsText(const scenario::Faults& f) {
  std::string out = "drop=" + f.drop.ToString() + " delay=" + f.delay.ToString() +
                    " reset=" + f.reset.ToString() + " pause=" + f.pause.ToString() +
                    " lease_gap=" + f.lease_gap.ToString() + " crash=" + f.crash.ToString();
  if (f.leader_start_ms_max > 0)
    out += " leader_start_ms_max=" + std::to_string(f.leader_start_ms_max);
  if (!f.replay_fail.IsNever()) out += " replay_fail=" + f.replay_fail.ToString();
  if (!f.compact.IsNever()) out += " compact=" + f.compact.ToString();
  if (!f.checkpoint_race.IsNever()) out += " checkpoint_race=" + f.checkpoint_race.ToString();
  if (!f.gc.IsNever()) out += " gc=" + f.gc.ToString();
  if (!f.migrate.IsNever()) out += " migrate=" + f.migrate.ToString();
  if (f.swarm) out += " swarm";
  return out;
}

bool Quiescent(const model::Cluster& cluster) {
  if (!cluster.Idle() || !cluster.metasrv().invalidations_settled()) return false;
  for (uint32_t n = 0; n < cluster.node_count(); ++n) {
    if (cluster.network().IsDown(n)) return false;
  }
  for (uint32_t i = 0; i < cluster.config().frontend_count; ++i) {
    if (cluster.frontend(i).NextTimer()) return false;
  }
  return true;
}

HistoryCounts CountHistory(const model::History& h) {
  HistoryCounts c;
  for (const model::WriteRecord& w : h.writes) {
    ++c.writes;
    c.acked += w.status == model::WriteStatus::kAcked;
    c.rejected += w.status == model::WriteStatus::kRejected;
    c.unknown += w.status == model::WriteStatus::kUnknown;
    c.pending += w.status == model::WriteStatus::kPending;
  }
  c.queries = c.queries_ok = h.retired_queries;  // the checker retires passed queries only
  for (const model::QueryRecord& q : h.queries) {
    ++c.queries;
    c.queries_ok += q.status == model::QueryStatus::kOk;
    c.queries_failed += q.status == model::QueryStatus::kError;
  }
  for (const model::DdlRecord& d : h.ddls) {
    ++c.ddls;
    c.ddls_done += d.status == model::DdlStatus::kDone;
    c.ddls_failed += d.status == model::DdlStatus::kFailed;
    c.ddls_rejected += d.status == model::DdlStatus::kRejected;
    c.ddls_unknown += d.status == model::DdlStatus::kUnknown;
  }
  return c;
}

// The two phases of a run over one Simulation (so step numbers stay global).
class PhasedRun {
 public:
  PhasedRun(const scenario::Scenario& s, model::Cluster& cluster, PhaseChooser& chooser,
            sim::Trace& trace, sim::CrashPlan& plan, sim::CrashPointStats& stats,
            const scenario::Faults& faults, uint64_t seed,
            const std::function<bool(const StepView&)>& after_step, WorkloadFeeder& workload)
      : s_(s),
        cluster_(cluster),
        workload_(workload),
        trace_(trace),
        rule_watch_(s),
        query_watch_(s.table_id(), s.table.schema),
        chooser_(chooser),
        plan_(plan),
        stats_(stats),
        faults_(faults),
        after_step_(after_step),
        sim_(cluster, chooser, trace, plan, stats,
             sim::RunOptions{sim::DriverKind::kTimed, s.limits.steps_max,
                             s.limits.time_ms_max + s.limits.liveness_ms, seed}),
        down_(cluster.node_count(), false) {}

  const PublishedRuleWatch& rule_watch() const { return rule_watch_; }
  const LivenessProbes& probes() const { return probes_; }
  QueryWatch& query_watch() { return query_watch_; }

  void Run(RunReport& report) {
    sim::AssertContext& assert_context = sim::CurrentAssertContext();
    assert_context.seed = report.summary.seed;
    assert_context.in_run = true;
    uint64_t crashes = 0;
    while (sim_.Step()) {
      if (sim_.now().ms != same_time_ms_) {
        same_time_ms_ = sim_.now().ms;
        same_time_steps_ = 0;
      }
      ++same_time_steps_;
      if (same_time_steps_ >= kLivelockSteps) {  // a loop that lets no time pass: stop it now
        report.livelock_steps = same_time_steps_;
        report.end_reason =
            "livelock: " + std::to_string(same_time_steps_) + " steps at one virtual millisecond";
        break;
      }
      if (sim_.steps() % kBusySteps == 0) {  // a loop that lets almost no time pass
        const bool busy =
            sim_.steps() > kBusySteps && sim_.now().ms - busy_window_start_ms_ < kBusyWindowMs;
        busy_windows_ = busy ? busy_windows_ + 1 : 0;
        if (busy_windows_ == 1) busy_first_ms_ = busy_window_start_ms_;
        if (busy_windows_ >= kBusyWindows) {
          report.livelock_steps = kBusySteps * kBusyWindows;
          report.livelock_window_ms = sim_.now().ms - busy_first_ms_;
          report.end_reason = "livelock: " + std::to_string(report.livelock_steps) + " steps in " +
                              std::to_string(report.livelock_window_ms) + " virtual ms";
          break;
        }
        busy_window_start_ms_ = sim_.now().ms;
      }
      workload_.AfterStep(cluster_);  // first: the step's watchers see the next statement due
      // Stamped with the index of the step just taken, as its trace lines are.
      rule_watch_.AfterStep(cluster_, check::CheckAt{sim_.steps() - 1, sim_.now().ms});
      query_watch_.AfterStep(cluster_);
      if (!healed_) {
        if (stats_.total_crashes() != crashes) {
          crashes = stats_.total_crashes();
          RestartLater();
        }
      }
      uint64_t liveness_key = 0;
      if (after_step_ && healed_) {
        sim::Hasher h;
        h.Add(report.heal_time_ms);
        probes_.Hash(h);
        liveness_key = h.Finish();
      }
      if (after_step_ &&
          !after_step_(StepView{cluster_, sim_.steps() - 1, sim_.now().ms, healed_, crashes,
                                rule_watch_.violations().size(), liveness_key})) {
        report.cut = true;
        report.end_reason = "cut";
        break;
      }
      if (!healed_) {
        if (sim_.now().ms >= s_.limits.time_ms_max) Heal(report);
        continue;
      }
      probes_.AfterStep(cluster_, sim_.now());
      if (sim_.now().ms < report.heal_time_ms + s_.limits.settle_ms || !Quiescent(cluster_)) {
        continue;
      }
      // Quiescent after settling: probe every row value once, then end at the next quiescence.
      if (!probes_.started() && probes_.Start(s_, cluster_, sim_.now())) continue;
      if (!probes_.done()) continue;
      report.quiescent = true;
      report.end_reason = "quiescent";
      break;
    }
    assert_context.in_run = false;
    // The trace hash covers the data outcome, not only the events: two runs whose traces
    // agree but whose datanodes or files end with different rows (a switch that changes
    // which rows survive without changing a message) must not pass a determinism check.
    trace_.SetClock(sim_.steps(), sim_.now());
    char detail[32];
    std::snprintf(detail, sizeof(detail), "data=0x%016llx",
                  static_cast<unsigned long long>(cluster_.DataFingerprint()));
    trace_.Record(sim::kNoNode, "run.data", detail);
    const sim::RunResult result = sim_.CurrentResult();
    report.summary = result.summary;
    report.time_ms = result.now.ms;
    if (!report.quiescent && !report.cut && report.livelock_steps == 0) {
      switch (result.outcome) {
        case sim::RunOutcome::kNondeterminism:
          report.end_reason = "nondeterminism";
          report.nondeterminism = result.nondeterminism;
          break;
        case sim::RunOutcome::kStepsMax:
          report.end_reason = "steps_max (" + std::to_string(s_.limits.steps_max) + ") reached " +
                              (healed_ ? "in the liveness phase" : "in the safety phase");
          report.capped = true;
          break;
        case sim::RunOutcome::kTimeMax:
          report.end_reason =
              "liveness budget (" + std::to_string(s_.limits.liveness_ms) + " ms) spent";
          break;
        default:
          report.end_reason = sim::ToString(result.outcome);
      }
    }
  }

 private:
  // Nodes felled by a crash point come back after faults.restart_after_ms.
  void RestartLater() {
    for (uint32_t n = 0; n < cluster_.node_count(); ++n) {
      const bool down = cluster_.network().IsDown(n);
      if (down && !down_[n]) {
        cluster_.Schedule(sim_.now() + sim::Ms(faults_.restart_after_ms),
                          model::RestartNodeOp{model::NodeId{n}});
      }
      down_[n] = down;
    }
  }

  void Heal(RunReport& report) {
    healed_ = true;
    report.heal_time_ms = sim_.now().ms;
    report.heal_step = sim_.steps();
    chooser_.set_healed(true);
    plan_ = sim::CrashPlan();  // no more crash points
    for (uint32_t n = 0; n < cluster_.node_count(); ++n) {
      if (cluster_.network().IsDown(n)) {
        cluster_.Schedule(sim_.now(), model::RestartNodeOp{model::NodeId{n}});
      }
    }
    cluster_.Schedule(sim_.now(), model::HealOp{});
    std::set<uint32_t> stale(s_.stale_frontends.begin(), s_.stale_frontends.end());
    for (uint32_t fe : stale) {
      cluster_.Schedule(sim_.now(), model::StaleCacheOp{fe, s_.table_id(), false});
    }
  }

  const scenario::Scenario& s_;
  model::Cluster& cluster_;
  WorkloadFeeder& workload_;
  sim::Trace& trace_;
  PublishedRuleWatch rule_watch_;
  QueryWatch query_watch_;
  LivenessProbes probes_;
  PhaseChooser& chooser_;
  sim::CrashPlan& plan_;
  sim::CrashPointStats& stats_;
  const scenario::Faults& faults_;
  const std::function<bool(const StepView&)>& after_step_;
  sim::Simulation<model::Cluster> sim_;
  std::vector<bool> down_;
  bool healed_ = false;
  int64_t same_time_ms_ = -1;         // the virtual time of the last step
  uint64_t same_time_steps_ = 0;      // steps taken at same_time_ms_ (livelock detection)
  int64_t busy_window_start_ms_ = 0;  // virtual time at the last multiple of kBusySteps
  uint64_t busy_windows_ = 0;         // consecutive windows shorter than kBusyWindowMs
  int64_t busy_first_ms_ = 0;         // where the first of them began
};

// Each violation's loss events and trace excerpt, from the kept trace.
void ExplainViolations(std::vector<check::Violation>& violations,
                       const std::vector<std::string>& trace, size_t excerpt_lines_max) {
  for (check::Violation& v : violations) {
    // A lost row's last holder: the event that lost it. The context follows the events
    // related to the violation (its operations, the regions holding its rows, those
    // events); a violation without any follows its regions.
    constexpr size_t kLossProbesMax = 4;
    check::AttachLossEvents(v, trace, kLossProbesMax);
    if (v.context_needles.empty()) {
      check::AttachTrace(v, trace, excerpt_lines_max);
    } else {
      const std::vector<std::string> regions = std::move(v.regions);
      v.regions.clear();
      check::AttachTrace(v, trace, excerpt_lines_max, v.context_needles);
      v.regions = regions;
    }
  }
}

// What the stories name besides the trace: node names and the table's final route.
StoryContext StoryContextOf(const model::Cluster& cluster, const scenario::Scenario& s) {
  StoryContext story;
  for (uint32_t n = 0; n < cluster.node_count(); ++n) {
    story.node_names.push_back(cluster.NodeName(model::NodeId{n}));
  }
  if (auto route = model::ReadTableRoute(cluster.metasrv().kv(), s.table_id())) {
    story.final_route_version = route->version;
    story.final_region_count = route->region_routes.size();
  }
  return story;
}

Outcome OutcomeOf(const RunReport& report, const check::Report& verdict) {
  if (!report.nondeterminism.empty()) return Outcome::kNondeterminism;
  if (verdict.HasSafetyViolation()) return Outcome::kSafety;
  if (verdict.HasLivenessViolation()) return Outcome::kLiveness;
  if (report.capped) return Outcome::kCapped;
  return Outcome::kPass;
}

// Checks the finished run: its violations (explained from the kept trace), decisive first,
// its stories and its outcome.
void Check(const scenario::Scenario& s, const model::Cluster& cluster, PhasedRun& run,
           const RunConfig& config, const std::vector<std::string>& trace, RunReport& report) {
  REPARTSIM_ASSERT(!report.cut);
  CheckInput input{&s,
                   &cluster,
                   report.summary.steps,
                   report.time_ms,
                   report.heal_step,
                   report.quiescent,
                   report.capped,
                   report.livelock_steps,
                   report.livelock_window_ms,
                   report.end_reason,
                   run.rule_watch().violations(),
                   run.probes().results(),
                   &run.query_watch(),
                   config.oracle_cross_check};
  report.violations = CheckRun(input);
  if (config.keep_trace) ExplainViolations(report.violations, trace, config.excerpt_lines_max);
  check::Report verdict;
  verdict.Add(report.violations);
  report.violations = verdict.Sorted();  // the decisive violation first
  if (config.keep_trace && !report.violations.empty()) {
    report.stories = BuildStories(report.violations, trace, StoryContextOf(cluster, s));
  }
  report.outcome = OutcomeOf(report, verdict);
}

void CountProbes(const LivenessProbes& probes, RunReport& report) {
  report.history.probes = probes.results().size();
  report.history.probe_writes = probes.attempt_count();
  for (const ProbeResult& p : probes.results()) report.history.probes_acked += p.acked;
  report.probe_write_first = probes.first_write_id();
}

}  // namespace

sim::Result<RunReport> RunScenario(const scenario::Scenario& given, const RunConfig& config) {
  RunReport report;
  std::optional<scenario::Scenario> shaped;
  if (given.shape_swarm) {
    auto drawn =
        scenario::DrawShapedScenario(given, config.seed, &report.shape, &report.shape_yaml);
    if (!drawn.ok()) return drawn.error();
    shaped = std::move(drawn).value();
  }
  const scenario::Scenario& s = shaped ? *shaped : given;
  auto protocol = BuildProtocol(s, config);
  if (!protocol.ok()) return protocol.error();
  report.scenario = s.name;
  report.path = s.path;
  report.profile = protocol.value().base_name();
  report.rules = protocol.value().OverridesText();
  report.summary.seed = config.seed;

  // Fixed fork order: workload first, then the swarm mix.
  sim::Prng root(config.seed);
  sim::Prng workload_prng = root.Fork();
  sim::Prng swarm_prng = root.Fork();
  const scenario::Faults faults = EffectiveFaults(s.faults, swarm_prng);
  report.faults = FaultsText(faults);

  model::Cluster cluster(ClusterConfigOf(s, faults), protocol.value());
  ScheduleScript(s, cluster);
  WorkloadFeeder workload(s, workload_prng, cluster);

  sim::Trace trace;
  trace.KeepLines(config.keep_trace);
  trace.WriteTo(config.trace_out);
  sim::CrashPlan plan = BuildCrashPlan(faults);
  sim::CrashPointStats stats;
  // Every known site appears in the coverage report, hit or not.
  for (const std::string& site : scenario::KnownCrashSites()) stats.Register(site);

  sim::RandomChooser random(config.seed);
  sim::ScriptedChooser scripted(s.faults.decisions);
  sim::Chooser* source = &random;
  if (config.chooser != nullptr) {
    source = config.chooser;
  } else if (!s.faults.decisions.empty()) {
    source = &scripted;
  }
  sim::RecordingChooser recording(*source);
  std::optional<sim::ReplayChooser> replay;
  if (config.replay != nullptr) replay.emplace(*config.replay);
  PhaseChooser chooser(replay ? static_cast<sim::Chooser&>(*replay) : recording);

  // An assertion in this run hands its decisions to config.on_internal_error (sim::AssertFail).
  struct FailHook {
    const RunConfig* config;
    const sim::RecordingChooser* recording;
    static void Call(void* arg) {
      const auto* hook = static_cast<const FailHook*>(arg);
      hook->config->on_internal_error(hook->recording->list());
    }
  } hook{&config, &recording};
  sim::AssertContext& assert_context = sim::CurrentAssertContext();
  const bool hooked = config.on_internal_error && !replay;
  if (hooked) {
    assert_context.on_fail = &FailHook::Call;
    assert_context.on_fail_arg = &hook;
  }
  struct Unhook {
    sim::AssertContext& context;
    bool hooked;
    ~Unhook() {
      if (hooked) context.on_fail = nullptr;
    }
  } unhook{assert_context, hooked};
  PhasedRun run(s, cluster, chooser, trace, plan, stats, faults, config.seed, config.after_step,
                workload);
  run.query_watch().oracle().set_cross_check(config.oracle_cross_check);
  run.query_watch().set_forget(!config.oracle_keeps_everything);
  run.Run(report);
  if (report.cut) {
    report.crash_points.insert(stats.sites().begin(), stats.sites().end());
    if (!replay) report.choices = recording.TakeList();
    if (config.keep_trace) report.trace_lines = trace.lines();
    return report;
  }

  Check(s, cluster, run, config, trace.lines(), report);
  report.crash_points.insert(stats.sites().begin(), stats.sites().end());
  report.network = cluster.network().counters();
  report.history = CountHistory(cluster.history());
  CountProbes(run.probes(), report);
  if (!replay) report.choices = recording.TakeList();
  if (config.keep_trace) report.trace_lines = trace.lines();
  return report;
}

}  // namespace repartsim::run
