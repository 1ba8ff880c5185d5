#include "model/ddl/pending_requests.h"

#include <algorithm>

#include "model/node/message.h"
#include "sim/assert.h"

namespace repartsim::model {

PendingRequests::PendingRequests() = default;
PendingRequests::~PendingRequests() = default;
PendingRequests::PendingRequests(const PendingRequests&) = default;
PendingRequests& PendingRequests::operator=(const PendingRequests&) = default;
PendingRequests::PendingRequests(PendingRequests&&) noexcept = default;
PendingRequests& PendingRequests::operator=(PendingRequests&&) noexcept = default;

void PendingRequests::Send(MetasrvEnv& env, NodeId node, RegionId region, RegionOp op) {
  REPARTSIM_ASSERT(!sent_);  // a round is sealed once, after its last Send
  const char* name = RegionOpName(op);
  if (IsMailboxOp(op)) {
    env.NoteRegionRequest(node, region, op);
    std::vector<RegionInstruction>& batch = batches_[node];
    REPARTSIM_ASSERT(batch.empty() || batch.front().op.index() == op.index());
    batch.push_back(RegionInstruction{region, std::move(op)});
    return;
  }
  const uint64_t corr = env.SendRegionRequest(node, region, std::move(op));
  const bool fresh = outstanding_.emplace(corr, Outstanding{node, region, name}).second;
  REPARTSIM_ASSERT_MSG(fresh, "correlation ids are never reused");
}

void PendingRequests::Seal(MetasrvEnv& env, std::optional<sim::SimTime> deadline) {
  REPARTSIM_ASSERT(!sent_);
  any_retry_ = false;
  any_abort_ = false;
  message_.clear();
  last_entry_id_ = 0;
  for (auto& [node, items] : batches_) {
    REPARTSIM_ASSERT(!items.empty());
    const RegionId first = items.front().region;
    const char* name = RegionOpName(items.front().op);
    if (!env.StreamConnected(node)) {
      // No pusher for the datanode: the mailbox refuses at once, a retryable error.
      any_retry_ = true;
      message_ = std::string("Pusher not found for ") + name + " on datanode " + node.ToString() +
                 " (region " + first.ToString() + ")";
      env.ctx().Log("ms.pusher_not_found", "to=" + node.ToString() + " op=" + name);
      continue;
    }
    const uint64_t corr = env.SendRegionRequests(node, std::move(items));
    const bool fresh = outstanding_.emplace(corr, Outstanding{node, first, name}).second;
    REPARTSIM_ASSERT_MSG(fresh, "correlation ids are never reused");
  }
  batches_.clear();
  deadline_ = deadline.has_value() ? *deadline : env.Now() + env.request_timeout();
  // Nothing to wait for: the round is decided now.
  if (outstanding_.empty()) deadline_ = env.Now();
  sent_ = true;
  REPARTSIM_ASSERT(sent_);
}

PendingRequests::Outcome PendingRequests::Collect(MetasrvEnv& env, bool not_found_ok) {
  REPARTSIM_ASSERT(sent_);
  REPARTSIM_ASSERT(batches_.empty());
  Inbox& inbox = env.inbox();
  for (auto it = outstanding_.begin(); it != outstanding_.end();) {
    auto reply = inbox.find(it->first);
    if (reply == inbox.end()) {
      ++it;
      continue;
    }
    for (const RegionResult& r : reply->second.results) {
      last_entry_id_ = std::max(last_entry_id_, r.last_entry_id);
    }
    // The first failing region decides this request's outcome.
    for (const RegionResult& r : reply->second.results) {
      if (r.code == ReplyCode::kOk || (not_found_ok && r.code == ReplyCode::kRegionNotFound)) {
        continue;
      }
      if (IsRetryable(r.code)) {
        any_retry_ = true;
        message_ = r.message;
      } else {
        any_abort_ = true;
        message_ = r.code == ReplyCode::kRegionNotFound
                       ? "Unexpected: region " + r.region.ToString() + " does not exist"
                       : r.message;
      }
      break;
    }
    inbox.erase(reply);
    it = outstanding_.erase(it);
  }
  if (!outstanding_.empty() && env.Now() < deadline_ && !any_abort_) return Outcome::kWaiting;
  if (!outstanding_.empty() && !any_abort_) {
    any_retry_ = true;
    const Outstanding& first = outstanding_.begin()->second;
    message_ = std::string("Mailbox receiver timeout: ") + first.op_name + " for region " +
               first.first.ToString();
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
  for (const auto& [corr, request] : outstanding_) env.Forget(corr);
  outstanding_.clear();
  batches_.clear();
  REPARTSIM_ASSERT(outstanding_.empty());
  REPARTSIM_ASSERT(batches_.empty());
  sent_ = false;
  any_retry_ = false;
  any_abort_ = false;
  message_.clear();
}

void PendingRequests::Hash(sim::Hasher& h) const {
  h.Add(sent_).Add(deadline_.ms).Add(any_retry_).Add(any_abort_);
  for (const auto& [corr, request] : outstanding_) {
    h.Add(corr).Add(request.first.value).Add(request.node.value);
  }
  h.Add(static_cast<uint64_t>(batches_.size()));
}

}  // namespace repartsim::model
