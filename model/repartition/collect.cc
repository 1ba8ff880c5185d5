// P4 Collect (docs/protocol.md section 10.3): waits for every child, then sorts them into
// succeeded, failed and unknown. Any failure rolls the parent back; under roll-forward-after-
// commit a failure after the commit point (a group applied staging) re-dispatches them instead,
// after the framework's retry backoff.
#include <algorithm>

#include "model/protocol/rules.h"
#include "model/repartition/repartition_procedure.h"
#include "sim/assert.h"

namespace repartsim::model {

Step RepartitionProcedure::Collect(MetasrvEnv& env, const ProcedureView& view) {
  REPARTSIM_ASSERT(state_ == State::kCollect);
  REPARTSIM_ASSERT(view.children.size() == ctx_.dispatch_plans.size());
  std::vector<size_t> failed;
  std::vector<size_t> unknown;
  for (size_t i = 0; i < view.children.size(); ++i) {
    size_t plan_index = ctx_.dispatch_plans[i];
    switch (view.children[i].second) {
      case ProcedureStatus::kDone:
        ctx_.succeeded_plans.push_back(plan_index);
        break;
      case ProcedureStatus::kFailed:
        failed.push_back(plan_index);
        break;
      default:
        unknown.push_back(plan_index);
        break;
    }
  }
  std::sort(ctx_.succeeded_plans.begin(), ctx_.succeeded_plans.end());
  if (failed.empty() && unknown.empty()) {
    state_ = State::kDeallocateRegion;
    return Step::Next(/*persist=*/true);
  }
  if (env.protocol().On(Rule::kRollForwardAfterCommit) && PastCommitPoint(env)) {
    ctx_.dispatch_plans = failed;
    ctx_.dispatch_plans.insert(ctx_.dispatch_plans.end(), unknown.begin(), unknown.end());
    std::sort(ctx_.dispatch_plans.begin(), ctx_.dispatch_plans.end());
    REPARTSIM_ASSERT(!ctx_.dispatch_plans.empty());
    // The failed groups are a retryable error of this step: the framework re-executes the
    // parent (now at Dispatch) after its exponential backoff, as GreptimeDB's runner retries a
    // step that returned a retryable error (src/common/procedure/src/local/runner.rs,
    // Runner::execute_once_with_retry: ExponentialBuilder, plus up to 25% noise). Before, the
    // parent re-dispatched at once, about 200 times a simulated second while a group kept
    // failing. Nothing is persisted (a retryable error is not): a metasrv restart resumes the
    // parent from its last record, at Dispatch.
    state_ = State::kDispatch;
    return Step::RetryLater("rolling forward: re-dispatching failed groups");
  }
  ctx_.failed_plans.insert(ctx_.failed_plans.end(), failed.begin(), failed.end());
  ctx_.unknown_plans.insert(ctx_.unknown_plans.end(), unknown.begin(), unknown.end());
  REPARTSIM_ASSERT(!ctx_.failed_plans.empty() || !ctx_.unknown_plans.empty());
  std::string message = "Failed to wait for repartition groups: failed plans [";
  for (size_t i = 0; i < failed.size(); ++i) message += (i ? "," : "") + std::to_string(failed[i]);
  message += "], unknown plans [";
  for (size_t i = 0; i < unknown.size(); ++i) {
    message += (i ? "," : "") + std::to_string(unknown[i]);
  }
  message += "]";
  return Step::Error(message);
}

}  // namespace repartsim::model
