// The persisted-procedure framework's vocabulary (docs/protocol.md section 9): a procedure is a
// state machine whose every step returns a Step telling the runner what to do next: keep executing
// (persisting the new state or not), finish, wait for replies, spawn children and suspend,
// retry later, or fail. The runner (ProcedureManager) persists step/commit/rollback records in
// the metasrv's KvStore, retries with exponential backoff in virtual time, rolls back, and
// recovers root procedures after a metasrv crash. Procedures are values (copyable, no
// pointers); they reach the outside world only through ProcedureContext.
#pragma once

#include <compare>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/fingerprint.h"
#include "sim/time.h"

namespace repartsim::model {

struct ProcedureId {
  uint64_t value = 0;
  friend constexpr auto operator<=>(ProcedureId, ProcedureId) = default;
  bool valid() const { return value != 0; }
};

// A procedure-level lock key ("catalog/greptime", "table/1024", "region/4398046511104").
struct LockKey {
  std::string key;
  bool exclusive = false;
  friend auto operator<=>(const LockKey&, const LockKey&) = default;
};

// A child a suspending procedure asks the runner to submit (its serialized initial state).
struct ChildSpec {
  std::string type;   // procedure type name, e.g. "RepartitionGroup"
  std::string state;  // Dump() of the child's initial body
};

struct Step {
  enum class Kind : uint8_t {
    kExecuting,   // the body moved to its next state; run again now
    kDone,        // finished successfully
    kWait,        // waiting for replies or until `wait_until`
    kSuspend,     // submit `children`, resume when all have finished
    kRetryLater,  // retryable error: re-execute the same state after a backoff
    kError,       // non-retryable error: roll back if supported, else fail
    kCrashed,     // a crash point fired inside the step; the metasrv is going down
    kPanic,       // the step panicked: Failed without rollback, records kept (ProcedureGuard)
  };
  Kind kind = Kind::kExecuting;
  bool persist = false;             // kExecuting/kSuspend: store the new state first
  sim::SimTime wait_until;          // kWait
  std::string message;              // kRetryLater/kError
  std::vector<ChildSpec> children;  // kSuspend

  static Step Next(bool persist) { return Step{Kind::kExecuting, persist, {}, {}, {}}; }
  static Step Done() { return Step{Kind::kDone, false, {}, {}, {}}; }
  static Step Wait(sim::SimTime until) { return Step{Kind::kWait, false, until, {}, {}}; }
  static Step Suspend(std::vector<ChildSpec> children, bool persist) {
    return Step{Kind::kSuspend, persist, {}, {}, std::move(children)};
  }
  static Step RetryLater(std::string message) {
    return Step{Kind::kRetryLater, false, {}, std::move(message), {}};
  }
  static Step Error(std::string message) {
    return Step{Kind::kError, false, {}, std::move(message), {}};
  }
  static Step Crashed() { return Step{Kind::kCrashed, false, {}, {}, {}}; }
  static Step Panic(std::string message) {
    return Step{Kind::kPanic, false, {}, std::move(message), {}};
  }
};

enum class ProcedureStatus : uint8_t {
  kRunning,
  kRetrying,
  kWaiting,
  kSuspended,
  kRollingBack,
  kDone,
  kFailed,
};

const char* ProcedureStatusName(ProcedureStatus status);

// What a step may ask about its own procedure.
struct ProcedureView {
  ProcedureId id;
  ProcedureId parent;
  // Children submitted by the last kSuspend, with their status; kFailed for those refused.
  std::vector<std::pair<ProcedureId, ProcedureStatus>> children;
  bool recovered = false;  // true iff this slot was recreated by Recover()
};

}  // namespace repartsim::model
