// The lock keys of GreptimeDB's procedures (src/common/meta/src/lock_key.rs): CatalogLock,
// SchemaLock, TableLock, TableNameLock and RegionLock, each Read (shared) or Write (exclusive).
// The same key names a procedure lock (held for a procedure's life, LockTable) or a dynamic
// lock (around one metadata write, DynamicLockTable); the two tables never conflict.
#pragma once

#include <string>

#include "model/meta/ids.h"
#include "model/procedure/procedure.h"

namespace repartsim::model {

inline LockKey CatalogReadLock() { return LockKey{"catalog/greptime", false}; }
inline LockKey SchemaReadLock() { return LockKey{"schema/greptime.public", false}; }
inline LockKey TableWriteLock(TableId table) { return LockKey{"table/" + table.ToString(), true}; }
inline LockKey TableNameWriteLock(const std::string& table_name) {
  return LockKey{"table_name/greptime.public." + table_name, true};
}
inline LockKey RegionWriteLock(RegionId region) {
  return LockKey{"region/" + std::to_string(region.value), true};
}

}  // namespace repartsim::model
