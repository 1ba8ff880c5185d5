// Adapter between a finished Cluster run and checker/check (which works on plain data and
// knows nothing of the cluster): feeds the SQLite oracle from the History (liveness probes
// included), turns every ownership breach the cluster recorded at acceptance into an INV-OWN
// violation (cross-checked by SQLite), checks every completed query (INV-NOOMIT/NODUP/
// NOPHANTOM, READ-ANOMALY when the query overlapped a DDL and the protocol does not fence
// reads), and at quiescence checks INV-ACK (a full scan of every routed region on its leader),
// INV-OWN (each region's exposed rows against its committed expression), INV-RULE (the
// published rule, exact checker), INV-META and the liveness probes (INV-LIVE). When the run
// did not become quiescent, INV-LIVE names what is still pending instead. PublishedRuleWatch
// checks INV-RULE during the run, after each step that changed the route.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "checker/check/check_at.h"
#include "checker/check/violation.h"
#include "checker/run/liveness_probes.h"
#include "checker/run/query_watch.h"
#include "checker/scenario/scenario.h"
#include "model/cluster/cluster.h"
#include "model/partition/rule.h"

namespace repartsim::run {

struct CheckInput {
  const scenario::Scenario* scenario = nullptr;
  const model::Cluster* cluster = nullptr;
  uint64_t end_step = 0;
  int64_t end_time_ms = 0;
  uint64_t heal_step = 0;
  bool quiescent = false;
  bool capped = false;  // steps_max ended the run (RunReport::capped): no INV-LIVE, no probes
  uint64_t livelock_steps = 0;       // RunReport::livelock_steps: INV-LIVE "livelock: ..."
  int64_t livelock_window_ms = 0;    // RunReport::livelock_window_ms
  std::string not_quiescent_reason;  // e.g. "steps_max reached"
  std::vector<check::Violation> step_violations;  // found during the run (PublishedRuleWatch)
  std::vector<ProbeResult> probes;                // liveness probes (LivenessProbes)
  // The queries judged during the run and the oracle it fed; nullptr: CheckRun builds the
  // oracle from the history and checks every query.
  QueryWatch* query_watch = nullptr;
  // The ownership checks ask SQLite and the model's evaluator both and stop (exit 70) if they
  // disagree (RunConfig::oracle_cross_check).
  bool cross_check = false;
};

// The table's published rule from its route: nullopt when the scenario's rule has no columns
// or some region has no expression (an unpartitioned table has no rule to check).
std::optional<model::PartitionRule> PublishedRule(const scenario::Scenario& s,
                                                  const model::TableRoute& route);

// INV-RULE during the run: after a step in which the table route's stored bytes changed
// (a byte compare, no decode), and then at the first step with the metasrv up and no
// procedure active, decodes the route and checks the published rule. Each distinct rule is
// checked once, so a broken rule is reported once, at the step it was published.
class PublishedRuleWatch {
 public:
  explicit PublishedRuleWatch(const scenario::Scenario& s);
  void AfterStep(const model::Cluster& cluster, check::CheckAt at);
  const std::vector<check::Violation>& violations() const { return violations_; }

 private:
  const scenario::Scenario* s_;
  std::string route_key_;
  std::string route_bytes_;               // the last seen stored route
  uint64_t kv_mutations_ = ~uint64_t{0};  // the store's mutation count when last compared
  bool changed_ = false;                  // changed since the last check
  std::set<std::string> checked_;         // canonical text of each rule checked
  std::vector<check::Violation> violations_;
};

// All violations of the run, in check order: ownership breaches (by step), rejected scripted
// DDLs (DDL-REJECTED), the step
// violations, queries (by completion), then quiescence (an INV-RULE already among the step
// violations is not repeated) or what is pending (nothing when the run was capped; a livelock
// first, then, once faults healed, what is pending).
std::vector<check::Violation> CheckRun(const CheckInput& input);

}  // namespace repartsim::run
