// ProcedureManager: the runner of the persisted-procedure framework (docs/protocol.md section 9).
// ProcedureRunner (body in procedure_manager.cc) runs type-erased bodies (any_body.h);
// ProcedureManager<Body, Env> is its typed face for one Body and one Env. The runner:
//   - acquires a procedure's lock keys at start and holds them to the end (waits on conflict);
//     steps take dynamic locks (a second table, DynamicLockTable) around metadata writes; the
//     runner releases what an ended procedure still holds and wakes their waiters;
//   - executes one step per Run(); a step returning persist=true has its NEW state stored as a
//     step record, between the crash points `<Type>.<State>.before_persist` and
//     `<Type>.<State>.after_persist`;
//   - retries kRetryLater with exponential backoff (retry_delay doubling, up to 25% noise
//     chosen through the Env's Chooser) up to max_retry_times, then rolls back; the budget and
//     the backoff belong to one execution of the procedure (a slot): a successful step does
//     not reset them, a recovery (a new slot) starts afresh, a rollback counts its own;
//   - kError: persists a rollback record and rolls back if the body supports it, else fails;
//   - kSuspend: submits children (refusing ones whose locks conflict with the parent's:
//     "Deadlock prevented"), resumes the parent when all children have ended;
//   - kPanic (executing or rolling back): Failed at once, no rollback, records kept;
//   - Done writes a commit record, then deletes the records of the in-memory tree.
// Crash() drops everything volatile; Recover() resubmits ROOT procedures only, from their
// latest record (rollback records resume rolling back).
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "model/procedure/any_body.h"
#include "model/procedure/dynamic_lock_table.h"
#include "model/procedure/lock_table.h"
#include "model/procedure/procedure.h"
#include "model/procedure/procedure_store.h"
#include "sim/result.h"

namespace repartsim::model {

struct ProcedureConfig {
  uint32_t max_retry_times = 12;             // metasrv's setting (ManagerConfig default 3)
  sim::Duration retry_delay = sim::Ms(500);  // first backoff, doubling
  sim::Duration retry_delay_max = sim::Seconds(60);
};

enum class RunResult : uint8_t { kOk, kCrashed, kNotRunnable };

inline constexpr sim::SimTime kNever{INT64_MAX};

class ProcedureRunner {
 public:
  // Rebuilds a body from a record (Body::Load of the typed face).
  using Loader = sim::Result<AnyBody> (*)(std::string_view type, std::string_view dump);

  struct Slot {
    ProcedureId id;
    ProcedureId root;
    ProcedureId parent;
    AnyBody body;
    ProcedureStatus status = ProcedureStatus::kRunning;
    uint32_t step = 0;         // index of the next record
    uint32_t retry_count = 0;  // retries of this execution (of its rollback once rolling back)
    bool locks_held = false;
    bool recovered = false;
    sim::SimTime wake_at;
    std::string error;
    std::vector<ProcedureId> children;
  };

  ProcedureRunner(ProcedureConfig config, Loader loader);

  // Submits a root (parent invalid) or child procedure, runnable at `now`. Does not persist,
  // as the real LocalManager::submit. REQUIRES: a valid `parent` is a live slot.
  ProcedureId Submit(AnyBody body, sim::SimTime now, ProcedureId parent = {});

  // Every procedure that wants to run, with the virtual time it wants to run at, id order.
  template <class F>
  void ForEachRunnable(F f) const {
    for (const auto& [id, slot] : slots_) {
      if (IsActive(slot.status) && slot.status != ProcedureStatus::kSuspended &&
          slot.wake_at < kNever) {
        f(id, slot.wake_at);
      }
    }
  }

  // Runs one step of `id`. kCrashed: a crash point fired; the caller crashes the metasrv.
  RunResult Run(ProcedureId id, ProcedureEnv& env);
  // A reply or child result arrived for `id`: run it at `now` if it is waiting.
  void Wake(ProcedureId id, sim::SimTime now);
  // Loses every volatile thing: in-memory procedures and locks. The store survives.
  void Crash();
  // Resubmits root procedures from their latest records (docs/protocol.md section 9, recovery).
  sim::Status Recover(sim::SimTime now);

  const Slot* Find(ProcedureId id) const;
  const std::map<ProcedureId, Slot>& slots() const { return slots_; }
  const ProcedureStore& store() const { return store_; }
  ProcedureStore& mutable_store() { return store_; }
  const LockTable& locks() const { return locks_; }
  const DynamicLockTable& dynamic_locks() const { return dynamic_locks_; }
  DynamicLockTable& mutable_dynamic_locks() { return dynamic_locks_; }
  const ProcedureConfig& config() const { return config_; }

  // True iff some procedure is still running, waiting, retrying, suspended or rolling back.
  bool HasActive() const;
  void Fingerprint(sim::Hasher& h) const;

  static bool IsActive(ProcedureStatus status) {
    return status != ProcedureStatus::kDone && status != ProcedureStatus::kFailed;
  }

 private:
  static Slot MakeSlot(ProcedureId id, ProcedureId root, ProcedureId parent, AnyBody body);
  ProcedureId RootOf(ProcedureId id) const;
  ProcedureView View(const Slot& slot) const;
  static std::string Site(const Slot& slot, const char* suffix);
  // Persists a record of `slot` between two crash points; false iff the metasrv crashed.
  bool Persist(Slot& slot, ProcedureEnv& env, RecordKind kind);
  RunResult Handle(Slot& slot, ProcedureEnv& env, Step step);
  RunResult Retry(Slot& slot, ProcedureEnv& env, const std::string& message, bool rolling_back);
  // Non-retryable error: roll back if supported (persisting a rollback record), else fail.
  RunResult Fail(Slot& slot, ProcedureEnv& env, const std::string& message);
  // The one panic path (the real ProcedureGuard): Failed, no rollback, records kept.
  RunResult Panic(Slot& slot, ProcedureEnv& env, const std::string& message);
  RunResult RunRollback(Slot& slot, ProcedureEnv& env, const ProcedureView& view);
  RunResult SuspendFor(Slot& slot, ProcedureEnv& env, Step step);
  RunResult Finish(Slot& slot, ProcedureEnv& env, ProcedureStatus status, RecordKind kind);
  // `slot` ended: release its locks, wake lock waiters and resume its parent if due.
  void Ended(Slot& slot, sim::SimTime now);
  // Procedures waiting for locks retry once some procedure released its locks.
  void WakeBlocked(sim::SimTime now);
  // Steps waiting for a dynamic lock retry once some dynamic lock was released.
  void WakeDynamicWaiters(sim::SimTime now);
  void ResumeIfChildrenEnded(Slot& parent, sim::SimTime now);
  std::vector<ProcedureId> Tree(ProcedureId root) const;

  friend struct sim::FingerprintSeam<ProcedureRunner>;

  ProcedureConfig config_;
  Loader loader_;
  std::map<ProcedureId, Slot> slots_;
  LockTable locks_;
  DynamicLockTable dynamic_locks_;
  ProcedureStore store_;  // durable
  uint64_t next_id_ = 1;  // durable: procedure ids are never reused (the real ones are UUIDs)
};

// The runner for one Body type stepping in one Env type (concepts in any_body.h).
template <class Body, class Env>
class ProcedureManager : public ProcedureRunner {
 public:
  explicit ProcedureManager(ProcedureConfig config = {}) : ProcedureRunner(config, &LoadBody) {}

  ProcedureId Submit(Body body, sim::SimTime now, ProcedureId parent = {}) {
    return ProcedureRunner::Submit(AnyBody::Of<Body, Env>(std::move(body)), now, parent);
  }
  RunResult Run(ProcedureId id, Env& env) {
    EnvRef<Env> ref(env);
    return ProcedureRunner::Run(id, ref);
  }
  // The typed body of a slot of this runner.
  static const Body& BodyOf(const Slot& slot) {
    const Body* body = slot.body.template Held<Body>();
    REPARTSIM_ASSERT(body != nullptr);
    return *body;
  }

 private:
  static sim::Result<AnyBody> LoadBody(std::string_view type, std::string_view dump) {
    sim::Result<Body> body = Body::Load(type, dump);
    if (!body.ok()) return body.error();
    return AnyBody::Of<Body, Env>(std::move(body).value());
  }
};

}  // namespace repartsim::model
