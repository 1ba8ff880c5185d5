// ProcedureManager: the runner of the persisted-procedure framework (docs/protocol.md section 9).
// Template over Body (a value type holding one procedure's state; see the concept below) and
// Env (the metasrv environment a step runs in). The runner:
//   - acquires a procedure's lock keys at start and holds them to the end (waits on conflict);
//   - executes one step per Run(); a step returning persist=true has its NEW state stored as a
//     step record, between the crash points `<Type>.<State>.before_persist` and
//     `<Type>.<State>.after_persist`;
//   - retries kRetryLater with exponential backoff (retry_delay doubling, up to 25% noise
//     chosen through the Env's Chooser) up to max_retry_times, then rolls back;
//   - kError: persists a rollback record and rolls back if the body supports it, else fails;
//   - kSuspend: submits children (refusing ones whose locks conflict with the parent's:
//     "Deadlock prevented"), resumes the parent when all children have ended;
//   - Done writes a commit record, then deletes the records of the in-memory tree.
// Crash() drops everything volatile; Recover() resubmits ROOT procedures only, from their
// latest record (rollback records resume rolling back).
//
// Body concept:
//   std::string_view type() const;  std::string state_name() const;  std::string Dump() const;
//   static sim::Result<Body> Load(std::string_view type, std::string_view dump);
//   Step Execute(Env&, const ProcedureView&);  Step Rollback(Env&, const ProcedureView&);
//   bool rollback_supported() const;  std::vector<LockKey> lock_keys() const;
//   void Fingerprint(sim::Hasher&) const;
// Env concept:
//   sim::SimTime Now() const;  bool CrashPoint(std::string_view site);
//   uint32_t Choose(std::string_view label, uint32_t option_count);
//   void TraceProcedure(ProcedureId, std::string_view what);
#pragma once

#include <map>
#include <string>
#include <vector>

#include "model/procedure/lock_table.h"
#include "model/procedure/procedure.h"
#include "model/procedure/procedure_store.h"
#include "sim/assert.h"
#include "sim/result.h"

namespace repartsim::model {

struct ProcedureConfig {
  uint32_t max_retry_times = 12;               // metasrv's setting (ManagerConfig default 3)
  sim::Duration retry_delay = sim::Ms(500);    // first backoff, doubling
  sim::Duration retry_delay_max = sim::Seconds(60);
};

// What a step may ask about its own procedure.
struct ProcedureView {
  ProcedureId id;
  ProcedureId parent;
  // Children submitted by the last kSuspend, with their status; kFailed for those refused.
  std::vector<std::pair<ProcedureId, ProcedureStatus>> children;
  bool recovered = false;  // true iff this slot was recreated by Recover()
};

enum class RunResult : uint8_t { kOk, kCrashed, kNotRunnable };

inline constexpr sim::SimTime kNever{INT64_MAX};

template <class Body, class Env>
class ProcedureManager {
 public:
  struct Slot {
    ProcedureId id;
    ProcedureId root;
    ProcedureId parent;
    Body body;
    ProcedureStatus status = ProcedureStatus::kRunning;
    uint32_t step = 0;  // index of the next record
    uint32_t retry_count = 0;
    bool locks_held = false;
    bool recovered = false;
    sim::SimTime wake_at;
    std::string error;
    std::vector<ProcedureId> children;
  };

  explicit ProcedureManager(ProcedureConfig config = {}) : config_(config) {}

  // Submits a root (parent invalid) or child procedure, runnable at `now`. Does not persist,
  // as the real LocalManager::submit.
  ProcedureId Submit(Body body, sim::SimTime now, ProcedureId parent = {}) {
    ProcedureId id{next_id_++};
    Slot slot = MakeSlot(id, parent.valid() ? RootOf(parent) : id, parent, std::move(body));
    slot.wake_at = now;
    slots_.emplace(id, std::move(slot));
    return id;
  }

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
  RunResult Run(ProcedureId id, Env& env) {
    auto it = slots_.find(id);
    if (it == slots_.end()) return RunResult::kNotRunnable;
    Slot& slot = it->second;
    if (!IsActive(slot.status) || slot.status == ProcedureStatus::kSuspended) {
      return RunResult::kNotRunnable;
    }
    if (!slot.locks_held) {
      if (!locks_.TryAcquireAll(id, slot.body.lock_keys())) {
        slot.wake_at = kNever;  // woken when some procedure releases its locks
        env.TraceProcedure(id, "waiting for locks");
        return RunResult::kOk;
      }
      slot.locks_held = true;
    }
    ProcedureView view = View(slot);
    if (slot.status == ProcedureStatus::kRollingBack) return RunRollback(slot, env, view);
    Step step = slot.body.Execute(env, view);
    return Handle(slot, env, std::move(step));
  }

  // A reply or child result arrived for `id`: run it at `now` if it is waiting.
  void Wake(ProcedureId id, sim::SimTime now) {
    auto it = slots_.find(id);
    if (it == slots_.end()) return;
    Slot& slot = it->second;
    if (slot.status == ProcedureStatus::kWaiting) {
      slot.status = ProcedureStatus::kRunning;
      slot.wake_at = now;
    } else if (slot.status == ProcedureStatus::kRollingBack && now < slot.wake_at) {
      slot.wake_at = now;  // a rollback waiting for replies
    }
  }

  // Loses every volatile thing: in-memory procedures and locks. The store survives.
  void Crash() {
    slots_.clear();
    locks_.Clear();
  }

  // Resubmits root procedures from their latest records (docs/protocol.md section 9, recovery).
  sim::Status Recover(sim::SimTime now) {
    // A procedure whose latest record is a commit had finished: its records are deleted and
    // it is not resumed (a crash between the commit record and the cleanup).
    std::vector<ProcedureId> committed;
    for (const ProcedureRecord& record : store_.Latest()) {
      if (record.kind == RecordKind::kCommit) committed.push_back(record.id);
    }
    store_.DeleteProcedures(committed);
    for (const ProcedureRecord& record : store_.Latest()) {
      if (record.parent.valid()) continue;  // only roots are recovered
      sim::Result<Body> body = Body::Load(record.type, record.body);
      if (!body.ok()) return body.error();
      Slot slot = MakeSlot(record.id, record.root, ProcedureId{}, std::move(body).value());
      slot.status = record.kind == RecordKind::kRollback ? ProcedureStatus::kRollingBack
                                                         : ProcedureStatus::kRunning;
      slot.step = record.step + 1;
      slot.wake_at = now;
      slot.recovered = true;
      slots_.emplace(record.id, std::move(slot));
    }
    return sim::Ok{};
  }

  const Slot* Find(ProcedureId id) const {
    auto it = slots_.find(id);
    return it == slots_.end() ? nullptr : &it->second;
  }
  const std::map<ProcedureId, Slot>& slots() const { return slots_; }
  const ProcedureStore& store() const { return store_; }
  ProcedureStore& mutable_store() { return store_; }
  const LockTable& locks() const { return locks_; }
  const ProcedureConfig& config() const { return config_; }

  // True iff some procedure is still running, waiting, retrying, suspended or rolling back.
  bool HasActive() const {
    for (const auto& [id, slot] : slots_) {
      if (IsActive(slot.status)) return true;
    }
    return false;
  }

  void Fingerprint(sim::Hasher& h) const {
    h.Add(next_id_);
    store_.Fingerprint(h);
    locks_.Fingerprint(h);
    h.Add(static_cast<uint64_t>(slots_.size()));
    for (const auto& [id, slot] : slots_) {
      h.Add(id.value).Add(slot.parent.value).Add(static_cast<uint64_t>(slot.status));
      h.Add(slot.step).Add(slot.retry_count).Add(slot.locks_held).Add(slot.wake_at.ms);
      h.Add(slot.error);
      for (ProcedureId child : slot.children) h.Add(child.value);
      slot.body.Fingerprint(h);
    }
  }

  static bool IsActive(ProcedureStatus status) {
    return status != ProcedureStatus::kDone && status != ProcedureStatus::kFailed;
  }

 private:
  static Slot MakeSlot(ProcedureId id, ProcedureId root, ProcedureId parent, Body body) {
    Slot slot{id, root, parent, std::move(body), ProcedureStatus::kRunning, 0, 0, false, false,
              sim::SimTime{}, std::string(), {}};
    return slot;
  }

  ProcedureId RootOf(ProcedureId id) const {
    auto it = slots_.find(id);
    REPARTSIM_ASSERT(it != slots_.end());
    return it->second.root;
  }

  ProcedureView View(const Slot& slot) const {
    ProcedureView view{slot.id, slot.parent, {}, slot.recovered};
    for (ProcedureId child : slot.children) {
      const Slot* c = Find(child);
      view.children.emplace_back(child, c ? c->status : ProcedureStatus::kFailed);
    }
    return view;
  }

  std::string Site(const Slot& slot, const char* suffix) const {
    std::string site(slot.body.type());
    site += '.';
    site += slot.body.state_name();
    site += '.';
    site += suffix;
    return site;
  }

  // Persists a record of `slot` between two crash points; false iff the metasrv crashed.
  bool Persist(Slot& slot, Env& env, RecordKind kind) {
    if (env.CrashPoint(Site(slot, "before_persist"))) return false;
    store_.Write(ProcedureRecord{slot.root, slot.id, slot.parent, slot.step, kind,
                                 std::string(slot.body.type()), slot.body.Dump()});
    ++slot.step;
    return !env.CrashPoint(Site(slot, "after_persist"));
  }

  RunResult Handle(Slot& slot, Env& env, Step step) {
    const sim::SimTime now = env.Now();
    switch (step.kind) {
      case Step::Kind::kCrashed:
        return RunResult::kCrashed;
      case Step::Kind::kExecuting:
        slot.retry_count = 0;
        slot.status = ProcedureStatus::kRunning;
        slot.wake_at = now;
        if (step.persist && !Persist(slot, env, RecordKind::kStep)) return RunResult::kCrashed;
        return RunResult::kOk;
      case Step::Kind::kWait:
        slot.status = ProcedureStatus::kWaiting;
        slot.wake_at = step.wait_until;
        return RunResult::kOk;
      case Step::Kind::kDone:
        return Finish(slot, env, ProcedureStatus::kDone, RecordKind::kCommit);
      case Step::Kind::kSuspend:
        return SuspendFor(slot, env, std::move(step));
      case Step::Kind::kRetryLater:
        return Retry(slot, env, step.message, /*rolling_back=*/false);
      case Step::Kind::kError:
        return Fail(slot, env, step.message);
      case Step::Kind::kPanic:
        // The real ProcedureGuard marks a panicked procedure Failed without rollback and
        // without cleaning its records, so recovery re-runs (and re-panics) the last record.
        slot.error = "panic: " + step.message;
        slot.status = ProcedureStatus::kFailed;
        slot.wake_at = kNever;
        env.TraceProcedure(slot.id, slot.error);
        locks_.ReleaseAll(slot.id);
        WakeBlocked(env.Now());
        if (slot.parent.valid()) {
          auto parent = slots_.find(slot.parent);
          if (parent != slots_.end()) ResumeIfChildrenEnded(parent->second, env.Now());
        }
        return RunResult::kOk;
    }
    REPARTSIM_UNREACHABLE();
  }

  RunResult Retry(Slot& slot, Env& env, const std::string& message, bool rolling_back) {
    ++slot.retry_count;
    slot.error = message;
    if (slot.retry_count > config_.max_retry_times) {
      if (rolling_back) {
        slot.error = "RollbackTimesExceeded: " + message;
        return Finish(slot, env, ProcedureStatus::kFailed, RecordKind::kRollback);
      }
      return Fail(slot, env, "RetryTimesExceeded: " + message);
    }
    sim::Duration delay = config_.retry_delay;
    for (uint32_t i = 1; i < slot.retry_count && delay < config_.retry_delay_max; ++i) {
      delay = delay * 2;
    }
    if (config_.retry_delay_max < delay) delay = config_.retry_delay_max;
    // Up to 25% noise, in quarters of the maximum, decided through the Chooser.
    delay += sim::Ms(delay.ms / 16 * env.Choose("procedure.backoff_noise", 5));
    if (!rolling_back) slot.status = ProcedureStatus::kRetrying;
    slot.wake_at = env.Now() + delay;
    env.TraceProcedure(slot.id, "retry later: " + message);
    return RunResult::kOk;
  }

  // Non-retryable error: roll back if supported (persisting a rollback record), else fail.
  RunResult Fail(Slot& slot, Env& env, const std::string& message) {
    slot.error = message;
    env.TraceProcedure(slot.id, "error: " + message);
    if (!slot.body.rollback_supported()) {
      return Finish(slot, env, ProcedureStatus::kFailed, RecordKind::kRollback);
    }
    if (!Persist(slot, env, RecordKind::kRollback)) return RunResult::kCrashed;
    slot.status = ProcedureStatus::kRollingBack;
    slot.retry_count = 0;
    slot.wake_at = env.Now();
    return RunResult::kOk;
  }

  RunResult RunRollback(Slot& slot, Env& env, const ProcedureView& view) {
    Step step = slot.body.Rollback(env, view);
    switch (step.kind) {
      case Step::Kind::kCrashed:
        return RunResult::kCrashed;
      case Step::Kind::kDone:
        return Finish(slot, env, ProcedureStatus::kFailed, RecordKind::kRollback);
      case Step::Kind::kRetryLater:
      case Step::Kind::kError:
        return Retry(slot, env, step.message, /*rolling_back=*/true);
      case Step::Kind::kWait:
        slot.wake_at = step.wait_until;
        return RunResult::kOk;
      case Step::Kind::kPanic:
        slot.error = "panic: " + step.message;
        slot.status = ProcedureStatus::kFailed;
        slot.wake_at = kNever;
        locks_.ReleaseAll(slot.id);
        WakeBlocked(env.Now());
        return RunResult::kOk;
      default:
        REPARTSIM_ASSERT_MSG(false, "rollback returned an unsupported step kind");
    }
    REPARTSIM_UNREACHABLE();
  }

  RunResult SuspendFor(Slot& slot, Env& env, Step step) {
    std::vector<Body> children;
    for (const ChildSpec& spec : step.children) {
      sim::Result<Body> body = Body::Load(spec.type, spec.state);
      REPARTSIM_ASSERT_MSG(body.ok(), "a child procedure failed to load its own dump");
      if (locks_.ConflictsWith(slot.id, body.value().lock_keys())) {
        return Fail(slot, env, "Deadlock prevented");
      }
      children.push_back(std::move(body).value());
    }
    if (step.persist && !Persist(slot, env, RecordKind::kStep)) return RunResult::kCrashed;
    slot.children.clear();
    for (Body& body : children) {
      slot.children.push_back(Submit(std::move(body), env.Now(), slot.id));
    }
    slot.status = ProcedureStatus::kSuspended;
    slot.wake_at = kNever;
    if (slot.children.empty()) ResumeIfChildrenEnded(slot, env.Now());
    return RunResult::kOk;
  }

  RunResult Finish(Slot& slot, Env& env, ProcedureStatus status, RecordKind kind) {
    if (kind == RecordKind::kCommit && !Persist(slot, env, kind)) return RunResult::kCrashed;
    slot.status = status;
    slot.wake_at = kNever;
    env.TraceProcedure(slot.id, status == ProcedureStatus::kDone ? "done" : "failed");
    locks_.ReleaseAll(slot.id);
    if (!slot.parent.valid()) store_.DeleteProcedures(Tree(slot.id));
    WakeBlocked(env.Now());
    if (slot.parent.valid()) {
      auto parent = slots_.find(slot.parent);
      if (parent != slots_.end()) ResumeIfChildrenEnded(parent->second, env.Now());
    }
    return RunResult::kOk;
  }

  // Procedures waiting for locks retry once some procedure released its locks.
  void WakeBlocked(sim::SimTime now) {
    for (auto& [id, other] : slots_) {
      if (IsActive(other.status) && other.wake_at == kNever && !other.locks_held &&
          other.status != ProcedureStatus::kSuspended) {
        other.wake_at = now;
      }
    }
  }

  void ResumeIfChildrenEnded(Slot& parent, sim::SimTime now) {
    if (parent.status != ProcedureStatus::kSuspended) return;
    for (ProcedureId child : parent.children) {
      const Slot* c = Find(child);
      if (c != nullptr && IsActive(c->status)) return;
    }
    parent.status = ProcedureStatus::kRunning;
    parent.wake_at = now;
  }

  std::vector<ProcedureId> Tree(ProcedureId root) const {
    std::vector<ProcedureId> ids;
    for (const auto& [id, slot] : slots_) {
      if (slot.root == root) ids.push_back(id);
    }
    return ids;
  }

  ProcedureConfig config_;
  std::map<ProcedureId, Slot> slots_;
  LockTable locks_;
  ProcedureStore store_;   // durable
  uint64_t next_id_ = 1;   // durable: procedure ids are never reused (the real ones are UUIDs)
};

}  // namespace repartsim::model
