#include "model/procedure/lock_table.h"

#include <algorithm>

#include "sim/assert.h"

namespace repartsim::model {

bool LockTable::Conflicts(const LockKey& key, ProcedureId owner) const {
  REPARTSIM_ASSERT(owner.valid());
  auto it = held_.find(key.key);
  if (it == held_.end()) return false;
  const Holders& holders = it->second;
  bool only_self = holders.owners.size() == 1 && holders.owners[0] == owner;
  if (only_self) return false;
  return key.exclusive || holders.exclusive;
}

bool LockTable::TryAcquireAll(ProcedureId owner, const std::vector<LockKey>& keys) {
  REPARTSIM_ASSERT(owner.valid());
  for (const LockKey& key : keys) {
    if (Conflicts(key, owner)) return false;
  }
  for (const LockKey& key : keys) {
    Holders& holders = held_[key.key];
    holders.exclusive = holders.exclusive || key.exclusive;
    auto it = std::lower_bound(holders.owners.begin(), holders.owners.end(), owner);
    if (it == holders.owners.end() || !(*it == owner)) holders.owners.insert(it, owner);
    // Postconditions: `owner` holds the key, and an exclusive key has no other holder.
    REPARTSIM_ASSERT(std::binary_search(holders.owners.begin(), holders.owners.end(), owner));
    REPARTSIM_ASSERT(!holders.exclusive || holders.owners.size() == 1);
  }
  return true;
}

bool LockTable::ConflictsWith(ProcedureId holder, const std::vector<LockKey>& keys) const {
  REPARTSIM_ASSERT(holder.valid());
  for (const LockKey& key : keys) {
    auto it = held_.find(key.key);
    if (it == held_.end()) continue;
    const Holders& holders = it->second;
    bool held_by = std::binary_search(holders.owners.begin(), holders.owners.end(), holder);
    if (held_by && (key.exclusive || holders.exclusive)) return true;
  }
  return false;
}

void LockTable::ReleaseAll(ProcedureId owner) {
  REPARTSIM_ASSERT(owner.valid());
  for (auto it = held_.begin(); it != held_.end();) {
    auto& owners = it->second.owners;
    REPARTSIM_ASSERT(std::is_sorted(owners.begin(), owners.end()));
    std::erase(owners, owner);
    if (owners.empty()) {
      it = held_.erase(it);
    } else {
      // Shared holders that remain never held it exclusively (exclusive means sole owner).
      it->second.exclusive = false;
      ++it;
    }
  }
}

void LockTable::Release(ProcedureId owner, const std::string& key) {
  REPARTSIM_ASSERT(owner.valid());
  auto it = held_.find(key);
  if (it == held_.end()) return;
  auto& owners = it->second.owners;
  std::erase(owners, owner);
  if (owners.empty()) {
    held_.erase(it);
  } else {
    it->second.exclusive = false;
  }
  REPARTSIM_ASSERT(held_.count(key) == 0 || !held_.at(key).exclusive);
}

void LockTable::Fingerprint(sim::Hasher& h) const {
  h.Add(static_cast<uint64_t>(held_.size()));
  for (const auto& [key, holders] : held_) {
    h.Add(key);
    h.Add(holders.exclusive).Add(static_cast<uint64_t>(holders.owners.size()));
    for (ProcedureId id : holders.owners) h.Add(id.value);
  }
}

}  // namespace repartsim::model
