// FaultScript: the scripted faults of a scenario that outlive the step that set them up. The
// message rules (drop, delay, duplicate, hold until a procedure state passed, reorder two
// messages; each for `count` matching messages), the ops armed on a procedure state (run when
// it passes its n-th time, optionally a delay later), and how many times each procedure state
// has passed. This class owns that state and its decisions (which rule a message matches,
// which armed ops a passed state fires); the cluster logs and acts (cluster_faults.cc). Rules
// stay in place when spent (indices are stable) until the safety phase ends.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/cluster/fault_action.h"
#include "model/cluster/scheduled_op.h"
#include "model/node/message.h"
#include "sim/fingerprint.h"
#include "sim/time.h"

namespace repartsim::model {

struct ArmedOp {
  std::string state;  // "Type.State"
  uint32_t occurrence = 1;
  sim::Duration delay{0};
  ScheduledOp op;
  std::optional<sim::SimTime> due;  // set once the state passed (delay > 0)
};

class FaultScript {
 public:
  // ---- message rules --------------------------------------------------------------------
  void AddRule(MessageRule rule);
  bool has_rules() const { return !rules_.empty(); }
  // The index of the first rule not spent yet that matches a message `out` from `from`.
  std::optional<size_t> Match(NodeId from, const Outgoing& out) const;
  const MessageRule& rule(size_t index) const { return rules_[index].rule; }
  // The rule at `index` took one more message.
  void Count(size_t index);
  // The safety phase ended: no rule applies any more.
  void ClearRules() { rules_.clear(); }

  // ---- ops armed on procedure states ----------------------------------------------------
  void Arm(std::string state, uint32_t occurrence, sim::Duration delay, ScheduledOp op);
  bool armed_empty() const { return armed_.empty(); }
  // True iff a rule or an armed op waits on a procedure state: the cluster then reports
  // every step's state to PassState.
  bool tracks_states() const { return track_states_; }
  // A procedure step that began in `state` ended in another one (or ended the procedure): the
  // times it has passed now, and the ops armed on this passing with no delay, taken out in
  // armed order. Ops with a delay become due at `now` + delay.
  uint32_t PassState(const std::string& state, sim::SimTime now, std::vector<ScheduledOp>* now_ops);
  // Takes out the armed op at `index`, which is due.
  ScheduledOp TakeDue(size_t index);
  // Takes out every armed op (the end of the safety phase), in armed order.
  std::vector<ArmedOp> TakeAllArmed();
  // Calls fn(index, due time) for each armed op that is due.
  template <class Fn>
  void ForEachDue(Fn&& fn) const {
    for (size_t i = 0; i < armed_.size(); ++i) {
      if (armed_[i].due) fn(i, *armed_[i].due);
    }
  }

  // The rules (with their counts). HashArmed: the armed ops, the passed states, and whether
  // states are tracked. Two calls so that the cluster's fingerprint keeps its order.
  void HashRules(sim::Hasher& h) const;
  void HashArmed(sim::Hasher& h) const;

 private:
  struct ActiveRule {
    MessageRule rule;
    uint32_t matched = 0;
    bool spent() const { return rule.count != 0 && matched >= rule.count; }
  };
  std::vector<ActiveRule> rules_;
  std::vector<ArmedOp> armed_;
  std::map<std::string, uint32_t> passed_;  // procedure state -> times passed
  bool track_states_ = false;               // something waits on a procedure state
};

}  // namespace repartsim::model
