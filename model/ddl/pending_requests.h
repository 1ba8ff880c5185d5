// PendingRequests: the request fan-out for procedure states that talk to datanodes
// (docs/protocol.md section 10.1): a state sends region requests, waits (Step::Wait) until
// every reply arrived or the request timeout passed, then classifies the outcome as the real
// mailbox handling does: a missing reply (timeout,
// datanode not connected, channel closed) or a retryable error -> RetryLater; a region that
// does not exist (`exists=false`) or a non-retryable error -> Unexpected (abort); all ok -> ok.
// The pending set is volatile: a metasrv crash loses it and the state re-sends.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "model/ddl/metasrv_env.h"
#include "model/node/message.h"
#include "model/procedure/procedure.h"

namespace repartsim::model {

class PendingRequests {
 public:
  enum class Outcome : uint8_t { kWaiting, kOk, kRetry, kAbort };

  bool sent() const { return sent_; }
  // True iff nothing is outstanding (e.g. a sealed batch that sent nothing).
  bool empty() const { return outstanding_.empty(); }
  // Sends `op` for `region` to `node` and remembers it.
  void Send(MetasrvEnv& env, NodeId node, RegionId region, RegionOp op);
  // Marks the batch sent: its deadline is now + the request timeout, capped at `deadline_max`.
  void Seal(MetasrvEnv& env, std::optional<sim::SimTime> deadline_max = std::nullopt);
  // Collects replies from the inbox. kWaiting: call `WaitStep()`; otherwise the batch is over
  // (and reset), and `message()` explains kRetry/kAbort. `not_found_ok`: RegionNotFound
  // counts as success (idempotent drops).
  Outcome Collect(MetasrvEnv& env, bool not_found_ok = false);
  Step WaitStep() const { return Step::Wait(deadline_); }
  // The step for a kRetry / kAbort outcome.
  Step FailureStep(Outcome outcome) const;
  const std::string& message() const { return message_; }
  // Forgets everything outstanding (used before a state re-sends).
  void Reset(MetasrvEnv& env);
  void Hash(sim::Hasher& h) const;

 private:
  std::map<uint64_t, RegionId> outstanding_;
  std::map<uint64_t, const char*> op_names_;
  sim::SimTime deadline_;
  bool sent_ = false;
  bool any_retry_ = false;
  bool any_abort_ = false;
  std::string message_;
};

}  // namespace repartsim::model
