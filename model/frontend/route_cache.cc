#include "model/frontend/route_cache.h"

#include "model/protocol/rules.h"
#include "sim/assert.h"

namespace repartsim::model {

const PartitionView& CachedTable::View(const Protocol& protocol) const {
  const bool aligned = protocol.On(Rule::kAlignedPartitionRule);
  if (view_cache == nullptr || view_cache_aligned != aligned) {
    view_cache = std::make_shared<const PartitionView>(BuildPartitionView(route, info, protocol));
    view_cache_aligned = aligned;
  }
  return *view_cache;
}

const CachedTable* RouteCache::Find(TableId table) const {
  auto it = cache_.find(table);
  return it == cache_.end() ? nullptr : &it->second;
}

void RouteCache::StartFill(TableId table, uint64_t corr, sim::SimTime deadline, uint32_t reloads) {
  REPARTSIM_ASSERT(!Filling(table));
  // operator[]: a table's count exists (0) from its first fill on, as the fingerprint records.
  fills_[table] = Fill{corr, invalidations_[table], deadline, reloads};
  REPARTSIM_ASSERT(Filling(table));
}

RouteCache::FillResult RouteCache::CompleteFill(const RouteReply& reply, bool discard_raced,
                                                bool versioned_fills) {
  FillResult result;
  auto fill = fills_.find(reply.table);
  if (fill == fills_.end() || fill->second.corr != reply.corr) return result;
  result.raced = invalidations_[reply.table] != fill->second.invalidations_at_start;
  result.reloads = fill->second.reloads;
  fills_.erase(fill);
  if (result.raced && discard_raced &&
      (versioned_fills || result.reloads < kVersionCheckedReloads)) {
    result.kind = FillResult::Kind::kDiscarded;
    return result;
  }
  if (result.raced && discard_raced) {
    REPARTSIM_ASSERT(!versioned_fills);
    REPARTSIM_ASSERT(result.reloads == kVersionCheckedReloads);
    cache_.erase(reply.table);
    result.kind = FillResult::Kind::kFailed;
    return result;
  }
  if (!reply.found) {
    cache_.erase(reply.table);
  } else {
    cache_[reply.table] = CachedTable{reply.route, reply.info};
  }
  result.kind = FillResult::Kind::kApplied;
  return result;
}

std::optional<sim::SimTime> RouteCache::NextDeadline() const {
  std::optional<sim::SimTime> next;
  for (const auto& [table, fill] : fills_) {
    if (!next || fill.deadline < *next) next = fill.deadline;
  }
  return next;
}

std::vector<TableId> RouteCache::TakeExpiredFills(sim::SimTime now) {
  std::vector<TableId> expired;
  for (const auto& [table, fill] : fills_) {
    if (fill.deadline <= now) expired.push_back(table);
  }
  for (TableId table : expired) fills_.erase(table);
  return expired;
}

bool RouteCache::ReceiveInvalidation(TableId table) {
  if (ignore_invalidations_.count(table) != 0) return false;
  Invalidate(table);
  return true;
}

void RouteCache::Invalidate(TableId table) {
  ++invalidations_[table];
  cache_.erase(table);
}

void RouteCache::SetIgnoreInvalidations(TableId table, bool ignore) {
  if (ignore) {
    ignore_invalidations_.insert(table);
  } else {
    ignore_invalidations_.erase(table);
  }
}

void RouteCache::Clear() {
  cache_.clear();
  fills_.clear();
  invalidations_.clear();
}

void RouteCache::Hash(sim::Hasher& h) const {
  // The cached route and table info (the planner and router read both), the counts, the
  // ignore set and the fills, each container with its size.
  h.Add(static_cast<uint64_t>(cache_.size()));
  for (const auto& [table, cached] : cache_) {
    h.Add(table.value);
    cached.route.Hash(h);
    cached.info.Hash(h);
  }
  h.Add(static_cast<uint64_t>(invalidations_.size()));
  for (const auto& [table, count] : invalidations_) h.Add(table.value).Add(count);
  h.Add(static_cast<uint64_t>(ignore_invalidations_.size()));
  for (TableId table : ignore_invalidations_) h.Add(table.value);
  h.Add(static_cast<uint64_t>(fills_.size()));
  for (const auto& [table, fill] : fills_) {
    h.Add(table.value).Add(fill.corr).Add(fill.invalidations_at_start).Add(fill.deadline.ms);
    h.Add(fill.reloads);
  }
}

}  // namespace repartsim::model
