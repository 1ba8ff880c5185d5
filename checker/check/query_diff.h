// The difference between a query's actual result and the oracle's expectation, compared as
// multisets of rows (ORDER BY is ignored). Each entry names one row and what is wrong with it:
// missing (required but absent, or present fewer times than required in append mode),
// duplicated (more copies than the expectation allows), phantom (an identity never written,
// or a value never written for that identity, counting rejected writes as never written) or
// wrong value (a value that was written, but that this query could not legitimately see).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/partition/schema.h"

namespace repartsim::check {

enum class DiffKind { kMissing, kDuplicated, kPhantom, kWrongValue };

enum class DiffReason {
  kNone,                  // missing and duplicated rows need no reason
  kIdentityNeverWritten,  // phantom
  kValueNeverWritten,     // phantom
  kValueRejected,         // phantom: only rejected writes carried this value
  kStaleValue,            // wrong value: superseded before the query started
  kNotMatchingQuery,      // wrong value: a visible value that fails the query's predicate
  kWrittenAfterQuery,     // wrong value: issued after the query ended
};

// "missing", "duplicated", "phantom", "wrong value".
std::string_view DiffKindName(DiffKind kind);
// "identity never written", "value never written", "value written only by rejected writes",
// "stale value superseded before the query started", "row does not match the query",
// "value written after the query ended"; "" for kNone.
std::string_view DiffReasonText(DiffReason reason);

struct DiffEntry {
  DiffKind kind = DiffKind::kMissing;
  DiffReason reason = DiffReason::kNone;
  model::Row row;                   // the returned row; for kMissing the expected row
  std::vector<model::Row> allowed;  // values the identity may show in this query
  uint32_t count_returned = 0;
  uint32_t count_min = 0;
  uint32_t count_max = 0;

  // "duplicated (h='a', ts=1, v=1): returned 2 times, expected at most 1",
  // "missing (h='a', ts=1, v=1)", "phantom (h='z', ts=1, v=1): identity never written",
  // "wrong value (h='a', ts=1, v=7): stale value superseded before the query started;
  // expected (h='a', ts=1, v=2)" (several allowed values are joined by " | ").
  std::string ToText(const model::TableSchema& schema) const;

  friend bool operator==(const DiffEntry&, const DiffEntry&) = default;
};

struct QueryDiff {
  // Sorted by kind, then by row (model::TotalOrder column by column).
  std::vector<DiffEntry> entries;

  bool empty() const { return entries.empty(); }
  size_t Count(DiffKind kind) const;
  // One ToText() line per entry.
  std::string ToText(const model::TableSchema& schema) const;
};

// Lexicographic model::TotalOrder over two rows of equal width: -1, 0 or 1.
int CompareRows(const model::Row& a, const model::Row& b);

}  // namespace repartsim::check
