// LockTable: procedure-level shared or exclusive key locks (docs/protocol.md section 9, KeyRwLock).
// A procedure acquires all its keys at once at runner start and holds them until it ends;
// if any key conflicts it acquires none and waits. There is no deadlock detection, as in the
// real system. Volatile: a metasrv crash releases every lock (recovery re-acquires).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "model/procedure/procedure.h"
#include "sim/fingerprint.h"

namespace repartsim::model {

class LockTable {
 public:
  // Returns true iff every key was free for `owner` (shared keys may be shared) and is now held.
  bool TryAcquireAll(ProcedureId owner, const std::vector<LockKey>& keys);
  // Returns true iff acquiring `keys` would conflict with locks held by `holder` only.
  bool ConflictsWith(ProcedureId holder, const std::vector<LockKey>& keys) const;
  void ReleaseAll(ProcedureId owner);
  // Releases `key` if `owner` holds it.
  void Release(ProcedureId owner, const std::string& key);
  void Clear() { held_.clear(); }
  bool empty() const { return held_.empty(); }
  // True iff some procedure holds `key` (shared or exclusive).
  bool Held(const std::string& key) const { return held_.count(key) != 0; }
  void Fingerprint(sim::Hasher& h) const;

 private:
  struct Holders {
    bool exclusive = false;
    std::vector<ProcedureId> owners;  // sorted
  };
  bool Conflicts(const LockKey& key, ProcedureId owner) const;

  std::map<std::string, Holders> held_;
};

}  // namespace repartsim::model
