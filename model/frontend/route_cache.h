// RouteCache: a frontend's table route and partition-info cache and its fills. A fill is a
// round trip to the metasrv, so it can race an invalidation: in `greptime` a fill that raced is
// reloaded up to kVersionCheckedReloads times, and when the last reload races again the load
// fails (nothing is cached); under Rule::kVersionedCacheFills a raced fill is always discarded
// and fetched again (docs/protocol.md section 8); with Rule::kDiscardRacedFills off (before
// GreptimeDB #7825) a raced fill is cached like any other.
// The cache only keeps state: the frontend sends the requests and logs. Plain value: copy =
// snapshot; Hash covers all of it.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <vector>

#include "model/frontend/partition_view.h"
#include "model/meta/ids.h"
#include "model/meta/region_route.h"
#include "model/meta/table_info.h"
#include "model/node/message.h"
#include "sim/fingerprint.h"
#include "sim/time.h"

namespace repartsim::model {

struct CachedTable {
  TableRoute route;
  TableInfo info;

  // BuildPartitionView(route, info, protocol), built on first use and kept: an entry never
  // changes once cached (a fill replaces it whole), and every statement routed or planned
  // with it asks for the view.
  const PartitionView& View(const Protocol& protocol) const;

  // The kept view and the switch it was built under; not part of the entry's value (neither
  // hashed nor compared). Copies share it.
  mutable std::shared_ptr<const PartitionView> view_cache = nullptr;
  mutable bool view_cache_aligned = false;
};

class RouteCache {
 public:
  // GreptimeDB's VersionChecked cache containers reload a value whose load an invalidation
  // interrupted up to this many times, then fail with GetLatestCacheRetryExceeded after
  // 1 + kVersionCheckedReloads attempts (src/common/meta/src/cache/container.rs,
  // init_with_retry, latest_get_backoff).
  static constexpr uint32_t kVersionCheckedReloads = 3;

  // What a RouteReply did to the cache.
  struct FillResult {
    enum class Kind : uint8_t {
      kIgnored,    // no fill of that table with that corr: stale or duplicate
      kDiscarded,  // it raced an invalidation and must be refilled (reload `reloads` + 1)
      kApplied,    // the cache now holds the reply's route (or nothing, when not found)
      kFailed,     // the last reload raced too: the load fails, nothing is cached
    };
    Kind kind = Kind::kIgnored;
    bool raced = false;    // an invalidation arrived while the fill was in flight
    uint32_t reloads = 0;  // raced fills discarded before this one
  };

  const CachedTable* Find(TableId table) const;
  const std::map<TableId, CachedTable>& tables() const { return cache_; }

  // True iff a fill of `table` is in flight.
  bool Filling(TableId table) const { return fills_.count(table) != 0; }
  // Records a fill of `table` sent with `corr`, expiring at `deadline`. REQUIRES: !Filling.
  void StartFill(TableId table, uint64_t corr, sim::SimTime deadline, uint32_t reloads);
  // Ends the fill `reply` answers; `discard_raced` is Rule::kDiscardRacedFills (off: a raced
  // fill is applied like any other, GreptimeDB's Unchecked loader before #7825) and
  // `versioned_fills` Rule::kVersionedCacheFills.
  FillResult CompleteFill(const RouteReply& reply, bool discard_raced, bool versioned_fills);
  // The earliest fill deadline, if a fill is in flight.
  std::optional<sim::SimTime> NextDeadline() const;
  // Forgets every fill whose deadline is <= now and returns their tables, in TableId order.
  std::vector<TableId> TakeExpiredFills(sim::SimTime now);

  // An InvalidateCache arrived: drops the table's route and counts the invalidation, unless
  // invalidations of `table` are ignored; returns false iff ignored.
  bool ReceiveInvalidation(TableId table);
  // Drops the table's cached route and counts an invalidation (even when ignored).
  void Invalidate(TableId table);
  // Drops the table's cached route without counting (a re-route or re-plan refreshes it).
  void Drop(TableId table) { cache_.erase(table); }
  // Keeps a stale cache: invalidations of `table` are ignored while set (scenario fault).
  void SetIgnoreInvalidations(TableId table, bool ignore);
  // A crash: routes, fills and invalidation counts are lost (the ignore set is a fault, kept).
  void Clear();

  void Hash(sim::Hasher& h) const;

 private:
  struct Fill {
    uint64_t corr = 0;
    uint64_t invalidations_at_start = 0;
    sim::SimTime deadline;
    uint32_t reloads = 0;  // raced fills discarded before this one
  };

  std::map<TableId, CachedTable> cache_;
  std::map<TableId, uint64_t> invalidations_;  // invalidations received per table
  std::set<TableId> ignore_invalidations_;
  std::map<TableId, Fill> fills_;
};

}  // namespace repartsim::model
