#include "model/ddl/pending_requests.h"

#include "sim/assert.h"

namespace repartsim::model {

void PendingRequests::Send(MetasrvEnv& env, NodeId node, RegionId region, RegionOp op) {
  const char* name = RegionOpName(op);
  REPARTSIM_ASSERT(!sent_);  // a batch is sealed once, after its last Send
  uint64_t corr = env.SendRegionRequest(node, region, std::move(op));
  const bool fresh = outstanding_.emplace(corr, region).second;
  REPARTSIM_ASSERT_MSG(fresh, "correlation ids are never reused");
  op_names_[corr] = name;
  REPARTSIM_ASSERT(op_names_.size() == outstanding_.size());
}

void PendingRequests::Seal(MetasrvEnv& env, std::optional<sim::SimTime> deadline_max) {
  REPARTSIM_ASSERT(!sent_);
  deadline_ = env.Now() + env.request_timeout();
  if (deadline_max.has_value() && *deadline_max < deadline_) deadline_ = *deadline_max;
  sent_ = true;
  any_retry_ = false;
  any_abort_ = false;
  message_.clear();
  REPARTSIM_ASSERT(sent_);
}

PendingRequests::Outcome PendingRequests::Collect(MetasrvEnv& env, bool not_found_ok) {
  REPARTSIM_ASSERT(sent_);
  Inbox& inbox = env.inbox();
  for (auto it = outstanding_.begin(); it != outstanding_.end();) {
    auto reply = inbox.find(it->first);
    if (reply == inbox.end()) {
      ++it;
      continue;
    }
    const RegionResponse& r = reply->second;
    if (r.code == ReplyCode::kOk || (not_found_ok && r.code == ReplyCode::kRegionNotFound)) {
      // success
    } else if (IsRetryable(r.code)) {
      any_retry_ = true;
      message_ = r.message;
    } else {
      any_abort_ = true;
      message_ = r.code == ReplyCode::kRegionNotFound
                     ? "Unexpected: region " + r.region.ToString() + " does not exist"
                     : r.message;
    }
    inbox.erase(reply);
    op_names_.erase(it->first);
    it = outstanding_.erase(it);
  }
  if (!outstanding_.empty() && env.Now() < deadline_ && !any_abort_) return Outcome::kWaiting;
  if (!outstanding_.empty() && !any_abort_) {
    any_retry_ = true;
    message_ = std::string("Mailbox receiver timeout: ") + op_names_.begin()->second +
               " for region " + outstanding_.begin()->second.ToString();
  }
  Outcome outcome = any_abort_ ? Outcome::kAbort : any_retry_ ? Outcome::kRetry : Outcome::kOk;
  std::string message = message_;
  Reset(env);
  message_ = std::move(message);
  REPARTSIM_ASSERT(!sent_);
  return outcome;
}

Step PendingRequests::FailureStep(Outcome outcome) const {
  REPARTSIM_ASSERT(outcome == Outcome::kRetry || outcome == Outcome::kAbort);
  return outcome == Outcome::kRetry ? Step::RetryLater(message_) : Step::Error(message_);
}

void PendingRequests::Reset(MetasrvEnv& env) {
  for (const auto& [corr, region] : outstanding_) env.Forget(corr);
  outstanding_.clear();
  op_names_.clear();
  REPARTSIM_ASSERT(outstanding_.empty());
  REPARTSIM_ASSERT(op_names_.empty());
  sent_ = false;
  any_retry_ = false;
  any_abort_ = false;
  message_.clear();
}

void PendingRequests::Hash(sim::Hasher& h) const {
  h.Add(sent_).Add(deadline_.ms).Add(any_retry_).Add(any_abort_);
  for (const auto& [corr, region] : outstanding_) h.Add(corr).Add(region.value);
}

}  // namespace repartsim::model
