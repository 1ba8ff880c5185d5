// EventQueue<Payload>: pending events ordered by (time, seq); seq is the queue's insertion
// counter, so events at equal times run in insertion order (FoundationDB's TaskQueue rule);
// Reserve and PushReserved let a producer push later an event that keeps the place it would
// have had if pushed now.
// Value type: copying a queue snapshots it (Payload must be copyable; no pointers/closures).
// Storage is one vector sorted ascending from head_: Pop is O(1), Push is a binary search plus
// a short memmove (new events are usually the latest), PopAt/RemoveIf are O(n).
// At(i)/PopAt(i) index pending entries in (time, seq) order, for untimed drivers. No
// per-operation allocation once the vector has grown to the working-set size.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "sim/assert.h"
#include "sim/fingerprint.h"
#include "sim/time.h"

namespace repartsim::sim {

template <class Payload>
class EventQueue {
 public:
  struct Entry {
    SimTime at;
    uint64_t seq = 0;
    Payload payload;
  };

  // Schedules `payload` at `at`; returns its seq (unique within this queue).
  uint64_t Push(SimTime at, Payload payload) {
    const uint64_t seq = next_seq_++;
    // Entries with the same time keep insertion order: insert after every entry <= at.
    auto it =
        std::upper_bound(entries_.begin() + static_cast<std::ptrdiff_t>(head_), entries_.end(), at,
                         [](SimTime t, const Entry& e) { return t < e.at; });
    entries_.insert(it, Entry{at, seq, std::move(payload)});
    return seq;
  }

  // Reserves `n` seqs for PushReserved: an event pushed later with one of them runs among the
  // events of its time as if it had been pushed now. Returns the first; they are consecutive.
  uint64_t Reserve(uint64_t n) {
    const uint64_t first = next_seq_;
    next_seq_ += n;
    return first;
  }

  // Schedules `payload` at `at` with `seq`, a seq from Reserve that no pending entry holds: it
  // goes after every entry earlier in (time, seq) order.
  void PushReserved(SimTime at, uint64_t seq, Payload payload) {
    REPARTSIM_ASSERT(seq < next_seq_);
    auto it = std::upper_bound(
        entries_.begin() + static_cast<std::ptrdiff_t>(head_), entries_.end(),
        std::make_pair(at, seq), [](const std::pair<SimTime, uint64_t>& key, const Entry& e) {
          return key.first < e.at || (!(e.at < key.first) && key.second < e.seq);
        });
    entries_.insert(it, Entry{at, seq, std::move(payload)});
  }

  bool empty() const { return head_ == entries_.size(); }
  size_t size() const { return entries_.size() - head_; }

  // The earliest entry. REQUIRES: !empty().
  const Entry& Top() const {
    REPARTSIM_ASSERT(!empty());
    return entries_[head_];
  }

  // Removes and returns the earliest entry. REQUIRES: !empty().
  Entry Pop() {
    REPARTSIM_ASSERT(!empty());
    Entry e = std::move(entries_[head_]);
    ++head_;
    if (head_ == entries_.size()) {
      entries_.clear();
      head_ = 0;
    } else if (head_ >= 64 && head_ * 2 >= entries_.size()) {
      Compact();
    }
    return e;
  }

  // The index-th pending entry in (time, seq) order. REQUIRES: index < size().
  const Entry& At(size_t index) const {
    REPARTSIM_ASSERT(index < size());
    return entries_[head_ + index];
  }

  // Removes and returns the index-th pending entry. REQUIRES: index < size().
  Entry PopAt(size_t index) {
    REPARTSIM_ASSERT(index < size());
    if (index == 0) return Pop();
    auto it = entries_.begin() + static_cast<std::ptrdiff_t>(head_ + index);
    Entry e = std::move(*it);
    entries_.erase(it);
    return e;
  }

  // Removes every entry whose payload satisfies pred(const Payload&); returns the count.
  template <class Pred>
  size_t RemoveIf(Pred pred) {
    Compact();
    const size_t before = entries_.size();
    std::erase_if(entries_, [&](const Entry& e) { return pred(e.payload); });
    return before - entries_.size();
  }

  // Calls f(const Entry&) for each pending entry in (time, seq) order.
  template <class F>
  void ForEach(F f) const {
    for (size_t i = head_; i < entries_.size(); ++i) f(entries_[i]);
  }

  void Clear() {
    entries_.clear();
    head_ = 0;
  }

  // Hashes the pending entries in order: count, then (at.ms, hash_payload(h, payload)) each.
  // seq values are left out on purpose: two states with the same pending events in the same
  // order are the same state, however many events were pushed before.
  template <class HashPayload>
  void Fingerprint(Hasher& h, HashPayload hash_payload) const {
    h.Add(static_cast<uint64_t>(size()));
    for (size_t i = head_; i < entries_.size(); ++i) {
      h.Add(entries_[i].at.ms);
      hash_payload(h, entries_[i].payload);
    }
  }

  uint64_t next_seq() const { return next_seq_; }

 private:
  void Compact() {
    if (head_ == 0) return;
    entries_.erase(entries_.begin(), entries_.begin() + static_cast<std::ptrdiff_t>(head_));
    head_ = 0;
  }

  std::vector<Entry> entries_;
  size_t head_ = 0;
  uint64_t next_seq_ = 0;
};

}  // namespace repartsim::sim
