#include "model/procedure/dynamic_lock_table.h"

#include "sim/assert.h"

namespace repartsim::model {

bool DynamicLockTable::TryAcquire(ProcedureId owner, const LockKey& key) {
  REPARTSIM_ASSERT(owner.valid());
  REPARTSIM_ASSERT(!key.key.empty());
  if (table_.TryAcquireAll(owner, {key})) {
    waiters_.erase(owner);
    return true;
  }
  waiters_.insert(owner);
  return false;
}

bool DynamicLockTable::HeldBy(ProcedureId owner, const std::string& key) const {
  return table_.ConflictsWith(owner, {LockKey{key, true}});
}

void DynamicLockTable::Release(ProcedureId owner, const std::string& key) {
  REPARTSIM_ASSERT(owner.valid());
  if (!HeldBy(owner, key)) return;
  table_.Release(owner, key);
  REPARTSIM_ASSERT(!HeldBy(owner, key));
  released_ = true;
}

void DynamicLockTable::ReleaseAll(ProcedureId owner) {
  REPARTSIM_ASSERT(owner.valid());
  waiters_.erase(owner);
  if (table_.empty()) return;
  table_.ReleaseAll(owner);
  released_ = true;
}

std::vector<ProcedureId> DynamicLockTable::TakeWaitersToWake() {
  if (!released_) return {};
  released_ = false;
  std::vector<ProcedureId> woken(waiters_.begin(), waiters_.end());
  waiters_.clear();
  return woken;
}

void DynamicLockTable::Clear() {
  table_.Clear();
  waiters_.clear();
  released_ = false;
}

void DynamicLockTable::Fingerprint(sim::Hasher& h) const {
  if (table_.empty() && waiters_.empty()) return;
  table_.Fingerprint(h);
  h.Add(static_cast<uint64_t>(waiters_.size()));
  for (ProcedureId id : waiters_) h.Add(id.value);
}

}  // namespace repartsim::model
