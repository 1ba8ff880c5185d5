// DynamicLockTable: the procedure framework's second lock table (GreptimeDB's
// `dynamic_key_lock`, src/common/procedure/src/local.rs `ContextProvider::acquire_lock`;
// docs/protocol.md section 9). A step takes a key here around one metadata write and drops it
// when the write is done; the procedure locks of LockTable are a different table, so a
// procedure holding `table/T` for life does not block another's dynamic `table/T`, and a
// dynamic holder blocks only other dynamic takers. A key may be held across steps (a round
// trip the real step awaits with the guard alive); every key an owner holds is released when
// it ends. A taker that finds the key held is recorded as a waiter and woken on the next
// release. Volatile: a metasrv crash clears it.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "model/procedure/lock_table.h"
#include "model/procedure/procedure.h"
#include "sim/fingerprint.h"

namespace repartsim::model {

class DynamicLockTable {
 public:
  // Returns true iff `owner` now holds `key` (re-entrant for the same owner); otherwise
  // records `owner` as a waiter.
  bool TryAcquire(ProcedureId owner, const LockKey& key);
  // Releases `key` if `owner` holds it.
  void Release(ProcedureId owner, const std::string& key);
  void ReleaseAll(ProcedureId owner);
  // The waiters to wake since the last call: every waiter once a release happened, else none.
  std::vector<ProcedureId> TakeWaitersToWake();
  void Clear();
  bool empty() const { return table_.empty(); }
  bool Held(const std::string& key) const { return table_.Held(key); }
  bool HeldBy(ProcedureId owner, const std::string& key) const;
  // Adds nothing while the table is empty and no one waits, so that runs which never hold a
  // dynamic lock across steps hash as before the table existed.
  void Fingerprint(sim::Hasher& h) const;

 private:
  LockTable table_;
  std::set<ProcedureId> waiters_;
  bool released_ = false;  // some key was released since TakeWaitersToWake
};

}  // namespace repartsim::model
