#include "model/cluster/fault_script.h"

#include "sim/assert.h"

namespace repartsim::model {

void FaultScript::AddRule(MessageRule rule) {
  if (!rule.until_state.empty()) track_states_ = true;
  rules_.push_back(ActiveRule{std::move(rule), 0});
}

std::optional<size_t> FaultScript::Match(NodeId from, const Outgoing& out) const {
  for (size_t i = 0; i < rules_.size(); ++i) {
    const ActiveRule& active = rules_[i];
    if (active.spent()) continue;
    const MessageRule& rule = active.rule;
    if (rule.from && *rule.from != from) continue;
    if (rule.to && *rule.to != out.to) continue;
    if (rule.kind == MessageKindName(out.message)) return i;
    const auto* request = std::get_if<RegionRequest>(&out.message.body);
    if (request != nullptr && rule.kind == RegionOpName(request->op())) return i;
  }
  return std::nullopt;
}

void FaultScript::Count(size_t index) {
  REPARTSIM_ASSERT(index < rules_.size());
  REPARTSIM_ASSERT(!rules_[index].spent());
  ++rules_[index].matched;
}

void FaultScript::Arm(std::string state, uint32_t occurrence, sim::Duration delay, ScheduledOp op) {
  REPARTSIM_ASSERT(occurrence >= 1);
  REPARTSIM_ASSERT(!state.empty());
  track_states_ = true;
  armed_.push_back(ArmedOp{std::move(state), occurrence, delay, std::move(op), std::nullopt});
}

uint32_t FaultScript::PassState(const std::string& state, sim::SimTime now,
                                std::vector<ScheduledOp>* now_ops) {
  REPARTSIM_ASSERT(now_ops != nullptr && now_ops->empty());
  const uint32_t times = ++passed_[state];
  for (size_t i = 0; i < armed_.size();) {
    ArmedOp& armed = armed_[i];
    if (armed.due || armed.state != state || armed.occurrence != times) {
      ++i;
    } else if (armed.delay.ms > 0) {
      armed.due = now + armed.delay;
      ++i;
    } else {
      now_ops->push_back(std::move(armed.op));
      armed_.erase(armed_.begin() + static_cast<std::ptrdiff_t>(i));
    }
  }
  return times;
}

ScheduledOp FaultScript::TakeDue(size_t index) {
  REPARTSIM_ASSERT(index < armed_.size() && armed_[index].due.has_value());
  ScheduledOp op = std::move(armed_[index].op);
  armed_.erase(armed_.begin() + static_cast<std::ptrdiff_t>(index));
  return op;
}

std::vector<ArmedOp> FaultScript::TakeAllArmed() {
  std::vector<ArmedOp> all = std::move(armed_);
  armed_.clear();
  return all;
}

void FaultScript::HashRules(sim::Hasher& h) const {
  h.Add(static_cast<uint64_t>(rules_.size()));
  for (const ActiveRule& r : rules_) {
    HashMessageRule(h, r.rule);
    h.Add(r.matched);
  }
}

void FaultScript::HashArmed(sim::Hasher& h) const {
  h.Add(static_cast<uint64_t>(armed_.size()));
  for (const ArmedOp& a : armed_) {
    h.Add(a.state).Add(a.occurrence).Add(a.delay.ms).Add(a.due ? a.due->ms : int64_t{-1});
    HashScheduledOp(h, a.op);
  }
  for (const auto& [state, times] : passed_) h.Add(state).Add(times);
  h.Add(track_states_);
}

}  // namespace repartsim::model
