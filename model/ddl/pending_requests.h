// PendingRequests: the request fan-out for procedure states that talk to datanodes
// (docs/protocol.md section 10.1). A state addresses region requests, seals the round and waits
// (Step::Wait) until every reply arrived or the round's deadline passed, then classifies the
// outcome as the real mailbox handling does (src/meta-srv/src/procedure/repartition/group/
// utils.rs handle_multiple_results): per request, the first failing region decides; a missing
// reply (timeout, datanode not connected, channel closed) or a retryable error -> RetryLater; a
// region that does not exist or a non-retryable error -> Unexpected (abort, also when other
// requests were retryable); all ok -> ok.
// Direct RPCs (CreateRegion, DropRegion) are one request per region with the RPC timeout.
// Mailbox instructions are one request per datanode naming all its regions, waited for until
// the deadline the state gives (the remaining group deadline).
// Everything is volatile: a metasrv crash loses it and the state re-sends.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/ddl/metasrv_env.h"
#include "model/node/message_fwd.h"
#include "model/procedure/procedure.h"

namespace repartsim::model {

class PendingRequests {
 public:
  enum class Outcome : uint8_t { kWaiting, kOk, kRetry, kAbort };

  // Out of line: the unsealed batches hold RegionInstructions, which this header only declares
  // (message_fwd.h), so copying or destroying a round happens in pending_requests.cc.
  PendingRequests();
  ~PendingRequests();
  PendingRequests(const PendingRequests&);
  PendingRequests& operator=(const PendingRequests&);
  PendingRequests(PendingRequests&&) noexcept;
  PendingRequests& operator=(PendingRequests&&) noexcept;

  bool sent() const { return sent_; }
  // True iff nothing is outstanding (e.g. a sealed round that sent nothing).
  bool empty() const { return outstanding_.empty(); }
  // Addresses `op` for `region` on `node` (logged as `ms.region_request`). An RPC is sent at
  // once; a mailbox op joins the instruction for `node` that Seal sends. REQUIRES: !sent().
  void Send(MetasrvEnv& env, NodeId node, RegionId region, RegionOp op);
  // Sends one mailbox instruction per datanode (NodeId order) and marks the round sent. Its
  // deadline is `deadline` when given (GreptimeDB's mailbox timeout is the group's remaining
  // time, Context::next_operation_timeout in src/meta-srv/src/procedure/repartition/group.rs),
  // else now + the RPC timeout.
  void Seal(MetasrvEnv& env, std::optional<sim::SimTime> deadline = std::nullopt);
  // Collects replies from the inbox. kWaiting: call `WaitStep()`; otherwise the round is over
  // (and reset), and `message()` explains kRetry/kAbort. `not_found_ok`: RegionNotFound
  // counts as success (idempotent drops).
  Outcome Collect(MetasrvEnv& env, bool not_found_ok = false);
  Step WaitStep() const { return Step::Wait(deadline_); }
  // The step for a kRetry / kAbort outcome.
  Step FailureStep(Outcome outcome) const;
  const std::string& message() const { return message_; }
  // The largest last entry id the last collected round's replies carried (DowngradeRegion).
  uint64_t last_entry_id() const { return last_entry_id_; }
  // Forgets everything outstanding (used before a state re-sends).
  void Reset(MetasrvEnv& env);
  void Hash(sim::Hasher& h) const;

 private:
  struct Outstanding {
    NodeId node;
    RegionId first;  // the request's first region (timeout messages)
    const char* op_name = "";
  };

  std::map<uint64_t, Outstanding> outstanding_;
  std::map<NodeId, std::vector<RegionInstruction>> batches_;  // mailbox ops not yet sealed
  sim::SimTime deadline_;
  bool sent_ = false;
  bool any_retry_ = false;
  bool any_abort_ = false;
  std::string message_;
  uint64_t last_entry_id_ = 0;
};

}  // namespace repartsim::model
