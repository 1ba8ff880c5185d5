// DdlContext: the metasrv services a DDL procedure step uses (GreptimeDB's DdlContext): the
// durable key-value store and its route decode cache, the region-request mailbox (correlation
// ids and per-procedure reply inboxes), cache invalidation, the peers and the regions being
// operated on (MemoryRegionKeeper). The metasrv implements it; procedures reach it only
// through MetasrvEnv. It lives below the procedures and the metasrv, so neither includes the
// other's folder.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "model/meta/kv_store.h"
#include "model/meta/region_route.h"
#include "model/node/message_fwd.h"
#include "model/node/node_context.h"
#include "model/procedure/dynamic_lock_table.h"
#include "model/procedure/procedure.h"
#include "sim/time.h"

namespace repartsim::model {

// Replies received for one procedure, by correlation id.
using Inbox = std::map<uint64_t, RegionResponse>;

class DdlContext {
 public:
  virtual KvStore& mutable_kv() = 0;
  // The cached decode of the route stored at `key`, whose bytes are `bytes`.
  virtual const TableRoute& DecodeRoute(const std::string& key, const std::string& bytes) const = 0;
  // A fresh correlation id whose reply is routed to `owner`'s inbox.
  virtual uint64_t RegisterRequest(ProcedureId owner) = 0;
  virtual Inbox& InboxOf(ProcedureId owner) = 0;
  // Forgets `corr` (a reply arriving later is ignored) and drops its reply from `owner`'s inbox.
  virtual void ForgetRequest(ProcedureId owner, uint64_t corr) = 0;
  // Broadcasts InvalidateCache for `table` and bumps the table's invalidation epoch.
  virtual void InvalidateTable(TableId table, NodeContext& ctx) = 0;
  virtual sim::Duration request_timeout() const = 0;
  virtual const std::vector<NodeId>& datanodes() const = 0;
  // Regions that may hold a lease before any route lists them (MemoryRegionKeeper), each with
  // the procedure that registered it: the registration lasts until that procedure ends
  // (GreptimeDB's OperatingRegionGuard is dropped with the procedure) or a crash.
  virtual std::map<RegionId, ProcedureId>& operating_regions() = 0;
  // Migration candidates opened as Followers (MemoryRegionKeeper entries with role Follower),
  // by (datanode, region), each with the procedure holding it: their heartbeats get a Follower
  // lease until the route lists them. Released like operating_regions().
  virtual std::map<std::pair<NodeId, RegionId>, ProcedureId>& follower_regions() = 0;
  // The procedure manager's dynamic lock table (locks around metadata writes).
  virtual DynamicLockTable& dynamic_locks() = 0;

 protected:
  ~DdlContext() = default;
};

}  // namespace repartsim::model
