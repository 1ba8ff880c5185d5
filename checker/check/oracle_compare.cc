// Comparison of an actual query result with an Expectation, as multisets of rows.
#include <algorithm>

#include "checker/check/oracle.h"

namespace repartsim::check {

namespace {

void SortEntries(std::vector<DiffEntry>& entries) {
  std::stable_sort(entries.begin(), entries.end(), [](const DiffEntry& a, const DiffEntry& b) {
    if (a.kind != b.kind) return a.kind < b.kind;
    return CompareRows(a.row, b.row) < 0;
  });
}

}  // namespace

DiffEntry Oracle::Unexpected(const model::Row& row, int32_t identity, const QuerySpec& spec) const {
  DiffEntry entry;
  entry.kind = DiffKind::kPhantom;
  entry.row = row;
  entry.count_returned = 1;
  if (identity < 0) {
    entry.reason = DiffReason::kIdentityNeverWritten;
    return entry;
  }
  const Identity& record = identities_[static_cast<size_t>(identity)];
  std::optional<uint64_t> max_issue =
      schema_.append_mode ? std::nullopt : MaxAckedIssueStep(record, spec);
  // Several versions may carry the returned value; the most forgiving explanation wins.
  int rank_best = 0;
  bool rejected = false;
  for (uint32_t version : record.versions) {
    if (RowOf(version) != row) continue;
    int rank = 0;
    switch (VisibilityOf(version, max_issue, spec)) {
      case Visibility::kRequired:
      case Visibility::kOptional:
        rank = 3;
        break;
      case Visibility::kStale:
        rank = 2;
        break;
      case Visibility::kAfterEnd:
        rank = 1;
        break;
      case Visibility::kRejected:
        rejected = true;
        break;
      case Visibility::kNone:
        break;
    }
    rank_best = std::max(rank_best, rank);
  }
  // Forgotten versions were stale to this query, or rejected (Oracle::set_horizon).
  if (!record.forgotten.empty()) {
    const uint64_t hash = RowHash(row) & ~uint64_t{1};
    for (uint64_t forgotten : record.forgotten) {
      if ((forgotten & ~uint64_t{1}) != hash) continue;
      if ((forgotten & 1) != 0) {
        rejected = true;
      } else {
        rank_best = std::max(rank_best, 2);
      }
    }
  }
  if (rank_best == 0) {
    entry.reason = rejected ? DiffReason::kValueRejected : DiffReason::kValueNeverWritten;
    return entry;
  }
  entry.kind = DiffKind::kWrongValue;
  entry.reason = rank_best == 3   ? DiffReason::kNotMatchingQuery
                 : rank_best == 2 ? DiffReason::kStaleValue
                                  : DiffReason::kWrittenAfterQuery;
  return entry;
}

QueryDiff Oracle::Compare(const Expectation& expected,
                          const std::vector<model::Row>& actual) const {
  QueryDiff diff;
  const std::vector<ExpectedSlot>& slots = expected.slots;
  slot_of_identity_.assign(identities_.size(), -1);
  for (size_t s = slots.size(); s-- > 0;) {
    REPARTSIM_ASSERT(slots[s].identity < identities_.size());
    slot_of_identity_[slots[s].identity] = static_cast<int32_t>(s);  // first slot wins
  }
  std::vector<uint32_t> returned(slots.size(), 0);
  std::vector<int32_t> first_returned(slots.size(), -1);
  for (size_t i = 0; i < actual.size(); ++i) {
    const model::Row& row = actual[i];
    REPARTSIM_ASSERT(row.size() == schema_.columns.size());
    int32_t identity = FindIdentity(row);
    int32_t slot = identity < 0 ? -1 : slot_of_identity_[static_cast<size_t>(identity)];
    bool found = false;
    if (slot >= 0 && !schema_.append_mode) {
      const ExpectedSlot& expected_slot = slots[static_cast<size_t>(slot)];
      ++returned[static_cast<size_t>(slot)];
      if (first_returned[static_cast<size_t>(slot)] < 0) {
        first_returned[static_cast<size_t>(slot)] = static_cast<int32_t>(i);
      }
      const std::span<const uint32_t> allowed = expected.VersionsOf(expected_slot);
      found =
          std::any_of(allowed.begin(), allowed.end(), [&](uint32_t v) { return RowOf(v) == row; });
    } else if (slot >= 0) {
      for (size_t s = static_cast<size_t>(slot);
           s < slots.size() && slots[s].identity == static_cast<uint32_t>(identity); ++s) {
        if (RowOf(expected.VersionsOf(slots[s]).front()) != row) continue;
        ++returned[s];
        if (first_returned[s] < 0) first_returned[s] = static_cast<int32_t>(i);
        found = true;
        break;
      }
    }
    if (found) continue;
    DiffEntry entry = Unexpected(row, identity, expected.spec);
    if (slot >= 0 && !schema_.append_mode) {
      entry.allowed = DistinctRows(expected.VersionsOf(slots[static_cast<size_t>(slot)]));
    }
    diff.entries.push_back(std::move(entry));
  }
  CompareSlots(expected, actual, returned, first_returned, diff);
  SortEntries(diff.entries);
  return diff;
}

void Oracle::CompareSlots(const Expectation& expected, const std::vector<model::Row>& actual,
                          const std::vector<uint32_t>& returned,
                          const std::vector<int32_t>& first_returned, QueryDiff& diff) const {
  for (size_t s = 0; s < expected.slots.size(); ++s) {
    const ExpectedSlot& slot = expected.slots[s];
    REPARTSIM_ASSERT(slot.size > 0);
    if (returned[s] >= slot.count_min && returned[s] <= slot.count_max) continue;
    DiffEntry entry;
    entry.count_returned = returned[s];
    entry.count_min = slot.count_min;
    entry.count_max = slot.count_max;
    if (returned[s] < slot.count_min) {
      entry.kind = DiffKind::kMissing;
      entry.row = RowOf(expected.VersionsOf(slot).back());
      entry.allowed = DistinctRows(expected.VersionsOf(slot));
      if (entry.allowed.size() == 1) entry.allowed.clear();
    } else {
      REPARTSIM_ASSERT(first_returned[s] >= 0);
      entry.kind = DiffKind::kDuplicated;
      entry.row = actual[static_cast<size_t>(first_returned[s])];
    }
    diff.entries.push_back(std::move(entry));
  }
}

}  // namespace repartsim::check
