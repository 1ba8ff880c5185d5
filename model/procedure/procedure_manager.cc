#include "model/procedure/procedure_manager.h"

#include "sim/assert.h"

namespace repartsim::model {

ProcedureRunner::ProcedureRunner(ProcedureConfig config, Loader loader)
    : config_(config), loader_(loader) {
  REPARTSIM_ASSERT(loader_ != nullptr);
  REPARTSIM_ASSERT(config_.retry_delay <= config_.retry_delay_max);
}

ProcedureId ProcedureRunner::Submit(AnyBody body, sim::SimTime now, ProcedureId parent) {
  REPARTSIM_ASSERT(!body.empty());
  REPARTSIM_ASSERT(now < kNever);
  ProcedureId id{next_id_++};
  Slot slot = MakeSlot(id, parent.valid() ? RootOf(parent) : id, parent, std::move(body));
  slot.wake_at = now;
  const bool inserted = slots_.emplace(id, std::move(slot)).second;
  REPARTSIM_ASSERT_MSG(inserted, "procedure ids are never reused");
  return id;
}

RunResult ProcedureRunner::Run(ProcedureId id, ProcedureEnv& env) {
  auto it = slots_.find(id);
  if (it == slots_.end()) return RunResult::kNotRunnable;
  Slot& slot = it->second;
  if (!IsActive(slot.status) || slot.status == ProcedureStatus::kSuspended) {
    return RunResult::kNotRunnable;
  }
  REPARTSIM_ASSERT(slot.id == id);
  if (!slot.locks_held) {
    if (!locks_.TryAcquireAll(id, slot.body.lock_keys())) {
      slot.wake_at = kNever;  // woken when some procedure releases its locks
      env.TraceProcedure(id, "waiting for locks");
      return RunResult::kOk;
    }
    slot.locks_held = true;
  }
  ProcedureView view = View(slot);
  REPARTSIM_ASSERT(view.children.size() == slot.children.size());
  RunResult result = slot.status == ProcedureStatus::kRollingBack
                         ? RunRollback(slot, env, view)
                         : Handle(slot, env, slot.body.Execute(env, view));
  if (result != RunResult::kCrashed) WakeDynamicWaiters(env.Now());
  return result;
}

void ProcedureRunner::Wake(ProcedureId id, sim::SimTime now) {
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

void ProcedureRunner::Crash() {
  slots_.clear();
  locks_.Clear();
  dynamic_locks_.Clear();
  REPARTSIM_ASSERT(locks_.empty());
  REPARTSIM_ASSERT(dynamic_locks_.empty());
}

sim::Status ProcedureRunner::Recover(sim::SimTime now) {
  // A procedure whose latest record is a commit had finished: its records are deleted and
  // it is not resumed (a crash between the commit record and the cleanup).
  std::vector<ProcedureId> committed;
  for (const ProcedureRecord& record : store_.Latest()) {
    if (record.kind == RecordKind::kCommit) committed.push_back(record.id);
  }
  store_.DeleteProcedures(committed);
  for (const ProcedureRecord& record : store_.Latest()) {
    REPARTSIM_ASSERT(record.kind != RecordKind::kCommit);
    if (record.parent.valid()) continue;  // only roots are recovered
    REPARTSIM_ASSERT(record.root == record.id);
    sim::Result<AnyBody> body = loader_(record.type, record.body.dump());
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

const ProcedureRunner::Slot* ProcedureRunner::Find(ProcedureId id) const {
  auto it = slots_.find(id);
  return it == slots_.end() ? nullptr : &it->second;
}

bool ProcedureRunner::HasActive() const {
  for (const auto& [id, slot] : slots_) {
    if (IsActive(slot.status)) return true;
  }
  return false;
}

void ProcedureRunner::Fingerprint(sim::Hasher& h) const {
  h.Add(next_id_);
  store_.Fingerprint(h);
  locks_.Fingerprint(h);
  dynamic_locks_.Fingerprint(h);
  h.Add(static_cast<uint64_t>(slots_.size()));
  for (const auto& [id, slot] : slots_) {
    h.Add(id.value).Add(slot.root.value).Add(slot.parent.value);
    h.Add(static_cast<uint64_t>(slot.status)).Add(slot.step).Add(slot.retry_count);
    h.Add(slot.locks_held).Add(slot.recovered).Add(slot.wake_at.ms).Add(slot.error);
    h.Add(static_cast<uint64_t>(slot.children.size()));
    for (ProcedureId child : slot.children) h.Add(child.value);
    slot.body.Fingerprint(h);
  }
}

ProcedureRunner::Slot ProcedureRunner::MakeSlot(ProcedureId id, ProcedureId root,
                                                ProcedureId parent, AnyBody body) {
  REPARTSIM_ASSERT(id.valid());
  REPARTSIM_ASSERT(root.valid());
  Slot slot{id,
            root,
            parent,
            std::move(body),
            ProcedureStatus::kRunning,
            0,
            0,
            false,
            false,
            sim::SimTime{},
            std::string(),
            {}};
  return slot;
}

ProcedureId ProcedureRunner::RootOf(ProcedureId id) const {
  auto it = slots_.find(id);
  REPARTSIM_ASSERT(it != slots_.end());
  REPARTSIM_ASSERT(it->second.root.valid());
  return it->second.root;
}

ProcedureView ProcedureRunner::View(const Slot& slot) const {
  ProcedureView view{slot.id, slot.parent, {}, slot.recovered};
  for (ProcedureId child : slot.children) {
    const Slot* c = Find(child);
    view.children.emplace_back(child, c ? c->status : ProcedureStatus::kFailed);
  }
  return view;
}

std::string ProcedureRunner::Site(const Slot& slot, const char* suffix) {
  std::string site(slot.body.type());
  site += '.';
  site += slot.body.state_name();
  site += '.';
  site += suffix;
  return site;
}

bool ProcedureRunner::Persist(Slot& slot, ProcedureEnv& env, RecordKind kind) {
  if (env.CrashPoint(Site(slot, "before_persist"))) return false;
  const uint32_t step = slot.step;
  store_.Write(ProcedureRecord{slot.root, slot.id, slot.parent, slot.step, kind,
                               std::string(slot.body.type()), PersistedBody::Of(slot.body)});
  ++slot.step;
  REPARTSIM_ASSERT(slot.step == step + 1);
  REPARTSIM_ASSERT(store_.record_count() > 0);
  return !env.CrashPoint(Site(slot, "after_persist"));
}

RunResult ProcedureRunner::Handle(Slot& slot, ProcedureEnv& env, Step step) {
  REPARTSIM_ASSERT(slot.locks_held);
  REPARTSIM_ASSERT(slot.status != ProcedureStatus::kRollingBack);
  const sim::SimTime now = env.Now();
  switch (step.kind) {
    case Step::Kind::kCrashed:
      return RunResult::kCrashed;
    case Step::Kind::kExecuting:
      // One retry budget and one growing backoff per execution of the procedure: a successful
      // step does not reset them (GreptimeDB's runner builds its backoff iterator once per
      // execution, src/common/procedure/src/local/runner.rs execute_once_with_retry).
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
      return Panic(slot, env, step.message);
  }
  REPARTSIM_UNREACHABLE();
}

RunResult ProcedureRunner::Retry(Slot& slot, ProcedureEnv& env, const std::string& message,
                                 bool rolling_back) {
  REPARTSIM_ASSERT(IsActive(slot.status));
  REPARTSIM_ASSERT(rolling_back == (slot.status == ProcedureStatus::kRollingBack));
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
  REPARTSIM_ASSERT(delay.ms > 0);
  if (!rolling_back) slot.status = ProcedureStatus::kRetrying;
  slot.wake_at = env.Now() + delay;
  env.TraceProcedure(slot.id, "retry later: " + message);
  return RunResult::kOk;
}

RunResult ProcedureRunner::Fail(Slot& slot, ProcedureEnv& env, const std::string& message) {
  REPARTSIM_ASSERT(IsActive(slot.status));
  REPARTSIM_ASSERT(slot.status != ProcedureStatus::kRollingBack);
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

RunResult ProcedureRunner::Panic(Slot& slot, ProcedureEnv& env, const std::string& message) {
  REPARTSIM_ASSERT(IsActive(slot.status));
  REPARTSIM_ASSERT(slot.locks_held);
  // The real ProcedureGuard marks a panicked procedure Failed without rollback and without
  // cleaning its records, so recovery re-runs (and re-panics) the last record.
  slot.error = "panic: " + message;
  slot.status = ProcedureStatus::kFailed;
  slot.wake_at = kNever;
  env.TraceProcedure(slot.id, slot.error);
  Ended(slot, env.Now());
  return RunResult::kOk;
}

RunResult ProcedureRunner::RunRollback(Slot& slot, ProcedureEnv& env, const ProcedureView& view) {
  REPARTSIM_ASSERT(slot.status == ProcedureStatus::kRollingBack);
  REPARTSIM_ASSERT(slot.body.rollback_supported());
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
      return Panic(slot, env, step.message);
    default:
      REPARTSIM_ASSERT_MSG(false, "rollback returned an unsupported step kind");
  }
  REPARTSIM_UNREACHABLE();
}

RunResult ProcedureRunner::SuspendFor(Slot& slot, ProcedureEnv& env, Step step) {
  REPARTSIM_ASSERT(step.kind == Step::Kind::kSuspend);
  REPARTSIM_ASSERT(slot.locks_held);
  std::vector<AnyBody> children;
  for (const ChildSpec& spec : step.children) {
    sim::Result<AnyBody> body = loader_(spec.type, spec.state);
    REPARTSIM_ASSERT_MSG(body.ok(), "a child procedure failed to load its own dump");
    if (locks_.ConflictsWith(slot.id, body.value().lock_keys())) {
      return Fail(slot, env, "Deadlock prevented");
    }
    children.push_back(std::move(body).value());
  }
  if (step.persist && !Persist(slot, env, RecordKind::kStep)) return RunResult::kCrashed;
  slot.children.clear();
  for (AnyBody& body : children) {
    slot.children.push_back(Submit(std::move(body), env.Now(), slot.id));
  }
  REPARTSIM_ASSERT(slot.children.size() == step.children.size());
  slot.status = ProcedureStatus::kSuspended;
  slot.wake_at = kNever;
  if (slot.children.empty()) ResumeIfChildrenEnded(slot, env.Now());
  return RunResult::kOk;
}

RunResult ProcedureRunner::Finish(Slot& slot, ProcedureEnv& env, ProcedureStatus status,
                                  RecordKind kind) {
  REPARTSIM_ASSERT(!IsActive(status));
  REPARTSIM_ASSERT((kind == RecordKind::kCommit) == (status == ProcedureStatus::kDone));
  if (kind == RecordKind::kCommit && !Persist(slot, env, kind)) return RunResult::kCrashed;
  slot.status = status;
  slot.wake_at = kNever;
  env.TraceProcedure(slot.id, status == ProcedureStatus::kDone ? "done" : "failed");
  if (!slot.parent.valid()) store_.DeleteProcedures(Tree(slot.id));
  Ended(slot, env.Now());
  return RunResult::kOk;
}

void ProcedureRunner::Ended(Slot& slot, sim::SimTime now) {
  REPARTSIM_ASSERT(!IsActive(slot.status));
  REPARTSIM_ASSERT(slot.wake_at == kNever);
  locks_.ReleaseAll(slot.id);
  dynamic_locks_.ReleaseAll(slot.id);
  WakeBlocked(now);
  WakeDynamicWaiters(now);
  if (slot.parent.valid()) {
    auto parent = slots_.find(slot.parent);
    if (parent != slots_.end()) ResumeIfChildrenEnded(parent->second, now);
  }
}

void ProcedureRunner::WakeBlocked(sim::SimTime now) {
  for (auto& [id, other] : slots_) {
    if (IsActive(other.status) && other.wake_at == kNever && !other.locks_held &&
        other.status != ProcedureStatus::kSuspended) {
      other.wake_at = now;
    }
  }
}

void ProcedureRunner::WakeDynamicWaiters(sim::SimTime now) {
  for (ProcedureId id : dynamic_locks_.TakeWaitersToWake()) Wake(id, now);
}

void ProcedureRunner::ResumeIfChildrenEnded(Slot& parent, sim::SimTime now) {
  if (parent.status != ProcedureStatus::kSuspended) return;
  for (ProcedureId child : parent.children) {
    const Slot* c = Find(child);
    if (c != nullptr && IsActive(c->status)) return;
  }
  parent.status = ProcedureStatus::kRunning;
  parent.wake_at = now;
}

std::vector<ProcedureId> ProcedureRunner::Tree(ProcedureId root) const {
  std::vector<ProcedureId> ids;
  for (const auto& [id, slot] : slots_) {
    if (slot.root == root) ids.push_back(id);
  }
  REPARTSIM_ASSERT(!ids.empty());
  return ids;
}

}  // namespace repartsim::model
