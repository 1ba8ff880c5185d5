// The SQLite oracle: the ground truth a run's query results are compared against.
// It records every write of the run (id, issue step, rows: its own copy, or the caller's rows
// in place) and its outcome: acknowledged
// (applied; last write wins per identity = primary key + time index, unless append mode),
// rejected (never applied) or unknown (a "maybe": may or may not be applied, at most once).
// Expect() computes, from the query's own WHERE text run by SQLite, which rows a query over
// [start_step, end_step] must, may and must not return; Compare() diffs an actual result
// against it as multisets. Copyable: a copy shares no state and rebuilds its SQLite mirror
// lazily (the write log is the truth; SQLite is an index over it for predicates).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>  // lint: lookup-only
#include <utility>
#include <vector>

#include "checker/check/query_diff.h"
#include "checker/check/sqlite_db.h"
#include "model/partition/predicate.h"
#include "model/partition/schema.h"
#include "sim/assert.h"
#include "sim/result.h"

namespace repartsim::check {

using WriteId = uint64_t;

enum class WriteState : uint8_t { kInFlight, kAcknowledged, kRejected, kUnknown };
// "in-flight", "acknowledged", "rejected", "unknown".
std::string_view WriteStateName(WriteState state);

struct QuerySpec {
  std::string where_sql;         // SQLite boolean expression, without WHERE; "" = all rows
  uint64_t start_step = 0;       // rows acknowledged before this step are required
  uint64_t end_step = 0;         // writes issued up to this step may be visible; >= start
  sim::SourceLocation location;  // where the query's SQL sits in the scenario, for errors
  // The same predicate as the model parsed it, or nullptr. When given and the model interprets
  // all of it (no Predicate::Kind::kOther), the oracle evaluates it on each row version itself
  // (model::EvaluatePredicate) and SQLite is not consulted; Oracle::set_cross_check makes it
  // consult both and stop the run (exit 70) if they disagree.
  const model::Predicate* where = nullptr;
};

// Inclusive bounds of a count(*) result.
struct CountRange {
  uint64_t min = 0;
  uint64_t max = 0;
  friend bool operator==(const CountRange&, const CountRange&) = default;
};

// One identity (last-write-wins) or one distinct row value of an identity (append mode)
// that the query may return, with the versions (indices for Oracle::VersionRow) it may show.
struct ExpectedSlot {
  uint32_t identity = 0;
  uint32_t first = 0;  // its versions are Expectation::versions[first, first + size); size > 0
  uint32_t size = 0;
  uint32_t count_min = 0;
  uint32_t count_max = 0;
};

struct Expectation {
  QuerySpec spec;
  // In order of the identities' first registration; append-mode slots of one identity are
  // adjacent and ordered by value (CompareRows).
  std::vector<ExpectedSlot> slots;
  std::vector<uint32_t> versions;  // the slots' versions, each slot's adjacent (no allocation
                                   // per slot: a query over the table has a slot per row)
  CountRange count;

  std::span<const uint32_t> VersionsOf(const ExpectedSlot& slot) const {
    return std::span<const uint32_t>(versions).subspan(slot.first, slot.size);
  }
};

class Oracle {
 public:
  // `path` empty keeps the SQLite mirror in memory; otherwise the file is created (an
  // existing oracle table in it is replaced). Errors: "cannot open oracle database ...".
  static Result<Oracle> Open(model::TableSchema schema, std::string path = "");

  Oracle(const Oracle& other);
  Oracle& operator=(const Oracle& other);
  Oracle(Oracle&&) noexcept = default;
  Oracle& operator=(Oracle&&) noexcept = default;
  ~Oracle();

  // REQUIRES: `id` is new; every row has one value per schema column, of its storage type.
  void RegisterWrite(WriteId id, uint64_t issue_step, std::vector<model::Row> rows);
  // The same without a copy: the oracle keeps pointers to `rows`, which the caller keeps
  // alive, unchanged and in place for as long as this oracle or a copy of it is used (the
  // run's History does: a WriteRecord's rows never change once it is issued).
  void RegisterWriteInPlace(WriteId id, uint64_t issue_step, std::span<const model::Row> rows);
  // REQUIRES: the write is in flight (or unknown, for a late acknowledgement).
  void Acknowledge(WriteId id, uint64_t step);
  // REQUIRES: the write is in flight.
  void Reject(WriteId id, uint64_t step);
  // REQUIRES: the write is in flight.
  void MarkUnknown(WriteId id, uint64_t step);
  bool Knows(WriteId id) const;
  WriteState StateOf(WriteId id) const;

  // Copies registered rows into SQLite, one transaction per call; opens the in-memory mirror
  // first if it is not open (an oracle without a file opens it only when a predicate needs
  // SQLite). Expect() flushes itself when it uses SQLite.
  void Flush();
  // Off by default: every predicate the model evaluates is also run through SQLite, and a
  // disagreement on any row version is an invariant break (REPARTSIM_ASSERT).
  void set_cross_check(bool on) { cross_check_ = on; }

  // Errors (bad WHERE text) carry spec.location and "oracle: <sqlite message> in WHERE <sql>".
  Result<Expectation> Expect(const QuerySpec& spec);
  QueryDiff Compare(const Expectation& expected, const std::vector<model::Row>& actual) const;
  Result<QueryDiff> Check(const QuerySpec& spec, const std::vector<model::Row>& actual);
  Result<CountRange> ExpectCount(const QuerySpec& spec);

  const model::TableSchema& schema() const { return schema_; }
  const model::Row& VersionRow(uint32_t version) const;
  // Forgetting, so that a long run's checks visit the versions a query may still see rather
  // than every version the run wrote. No query that starts at or after `step` can see a
  // version that is rejected, that a later row of its own write overwrote (once the write has
  // an outcome), or that was acknowledged before `step` and is older than the issue of another
  // version of its identity acknowledged before `step` (last write wins). Once the horizon is
  // set, Expect drops such versions from each identity it visits once the identity holds
  // twice the versions it kept the last time (so at a constant cost per version), and keeps a
  // 64-bit hash of each dropped row value (Identity::forgotten), so that a result returning
  // one is still told "stale value ..." or "value written only by rejected writes", as
  // without forgetting.
  // REQUIRES: `step` does not decrease, and every later Expect, Check or ExpectCount has
  // spec.start_step >= step (checked). 0, the default, forgets nothing.
  void set_horizon(uint64_t step);
  uint64_t horizon() const { return horizon_; }
  // Versions dropped so far (they stay in version_count() and in the SQLite mirror).
  size_t forgotten_count() const { return forgotten_count_; }
  // The writes registered in place all of whose versions are forgotten and whose rows the
  // oracle no longer reads (an identity's first readable version is kept to name it), since
  // the last call: the caller may free or move those rows (run::PackWriteRows).
  std::vector<WriteId> TakeColdWrites() { return std::exchange(cold_writes_, {}); }
  // Whether the oracle may still read rows of write `id` in place (RegisterWriteInPlace, some
  // version not yet released): while it does, the caller must keep them where they are.
  // REQUIRES: `id` is registered.
  bool ReadsInPlace(WriteId id) const {
    const WriteRecord& w = FindWrite(id);
    return w.in_place && w.readable > 0;
  }

  size_t write_count() const { return writes_.size(); }
  size_t version_count() const { return versions_.size(); }
  size_t identity_count() const { return identities_.size(); }

 private:
  struct WriteRecord {
    WriteId id = 0;
    uint64_t issue_step = 0;
    uint64_t resolve_step = 0;
    WriteState state = WriteState::kInFlight;
    bool in_place = false;
    uint32_t readable = 0;  // its versions whose rows the oracle may still read
  };
  // 24 bytes on a 64-bit target (a long run registers a Version per row it writes).
  struct Version {
    uint32_t write = 0;     // index into writes_
    uint32_t identity = 0;  // index into identities_
    // The row: *in_place (RegisterWriteInPlace), else owned_rows_[owned].
    const model::Row* in_place = nullptr;
    uint32_t owned = 0;
    bool overwritten_in_write = false;  // a later row of the same write has this identity
    bool released = false;              // forgotten, and its row is never read again
  };
  // A long run registers a Version per row it writes and a WriteRecord per write: their sizes
  // are what its memory rests on (docs/performance.md).
  static_assert(sizeof(void*) != 8 || sizeof(Version) == 24, "Oracle::Version grew");
  static_assert(sizeof(void*) != 8 || sizeof(WriteRecord) == 32, "Oracle::WriteRecord grew");
  static constexpr uint32_t kNoIdentity = 0xffffffffu;
  struct Identity {
    // In registration order; without the forgotten ones (then possibly empty).
    std::vector<uint32_t> versions;
    uint32_t next_same_hash = kNoIdentity;  // collision chain of identity_heads_
    uint32_t key = 0;  // its first version, whose row gives the identity columns' values
    // The forgotten versions' rows, each distinct one once: RowHash(row) with bit 0 set iff
    // its write was rejected.
    std::vector<uint64_t> forgotten;
    bool key_forgotten = false;  // `key` was forgotten while no other version could name it
    // Expect calls Forget once `versions` holds this many (twice what the last call kept, and
    // at least 2): amortized, a constant cost per version rather than one pass per visit.
    uint32_t forget_at = 2;
  };
  enum class Visibility { kNone, kRequired, kOptional, kStale, kAfterEnd, kRejected };

  Oracle(model::TableSchema schema, std::string path);
  sim::Status OpenMirror();
  void AddVersion(uint32_t write, const model::Row& row, const model::Row* in_place);
  const model::Row& RowOf(uint32_t version) const {
    const Version& v = versions_[version];
    // A released version's row may be gone: the caller packs a write once every version it
    // carries is released (TakeColdWrites), which frees the rows `in_place` points into.
    REPARTSIM_ASSERT(v.in_place == nullptr || !v.released);
    return v.in_place != nullptr ? *v.in_place : owned_rows_[v.owned];
  }
  // Appends writes_' record of a new write and indexes it; returns its index.
  uint32_t AddWrite(WriteId id, uint64_t issue_step, bool in_place, size_t rows);
  const uint32_t* IndexOf(WriteId id) const;  // into writes_, nullptr if unknown
  WriteRecord& FindWrite(WriteId id);
  const WriteRecord& FindWrite(WriteId id) const;
  uint64_t IdentityHash(const model::Row& row) const;
  static uint64_t RowHash(const model::Row& row);
  // Drops the versions of `identity` no query starting at or after horizon_ can see, and
  // sets its forget_at.
  void Forget(Identity& identity);
  // Marks `version` released: its row is not read again (Flush and cross-checks skip it).
  void Release(uint32_t version);
  bool SameIdentity(const model::Row& a, const model::Row& b) const;
  int32_t FindIdentity(const model::Row& row, uint64_t hash) const;
  int32_t FindIdentity(const model::Row& row) const;
  Result<SqliteStatement*> PredicateStatement(const QuerySpec& spec);
  sim::Status MarkMatches(const QuerySpec& spec);
  sim::Status MarkMatchesBySqlite(const QuerySpec& spec);
  std::optional<uint64_t> MaxAckedIssueStep(const Identity& identity, const QuerySpec& spec) const;
  Visibility VisibilityOf(uint32_t version, std::optional<uint64_t> max_acked_issue,
                          const QuerySpec& spec) const;
  // Whether `version` satisfies the WHERE of the query MarkMatches prepared.
  bool Matches(uint32_t version) const;
  void AddLwwSlot(uint32_t identity_index, const QuerySpec& spec, Expectation& out) const;
  void AddAppendSlots(uint32_t identity_index, const QuerySpec& spec, Expectation& out) const;
  DiffEntry Unexpected(const model::Row& row, int32_t identity, const QuerySpec& spec) const;
  void CompareSlots(const Expectation& expected, const std::vector<model::Row>& actual,
                    const std::vector<uint32_t>& returned,
                    const std::vector<int32_t>& first_returned, QueryDiff& diff) const;
  std::vector<model::Row> DistinctRows(std::span<const uint32_t> versions) const;

  model::TableSchema schema_;
  std::string path_;
  std::vector<size_t> identity_columns_;
  std::vector<WriteRecord> writes_;
  std::vector<std::pair<WriteId, uint32_t>> write_index_;  // (id, index into writes_) by id
  std::vector<Version> versions_;
  std::vector<model::Row> owned_rows_;  // the rows RegisterWrite was given
  std::vector<Identity> identities_;
  // Identity lookup by the sim::Hasher hash of the identity columns' values; collisions chain
  // through Identity::next_same_hash. Never iterated.
  std::unordered_map<uint64_t, uint32_t> identity_heads_;  // lint: lookup-only

  // The SQLite mirror and its statements; rebuilt from versions_ after a copy.
  std::unique_ptr<SqliteDb> db_;
  SqliteStatement insert_;
  std::map<std::string, SqliteStatement> predicates_;
  size_t versions_flushed_ = 0;
  bool cross_check_ = false;
  uint64_t horizon_ = 0;
  size_t forgotten_count_ = 0;
  std::vector<WriteId> cold_writes_;
  // Scratch, sized to versions_/identities_ and cleared after each use. matched_: per version
  // 1 when it satisfies the query's WHERE, 0 when not, kMatchUnknown when the model's
  // evaluator has not been asked yet (Matches asks it on first use, so a query evaluates its
  // predicate only on the versions it may see, not on every version of the run).
  static constexpr uint8_t kMatchUnknown = 2;
  mutable std::vector<uint8_t> matched_;
  model::BoundPredicate lazy_where_;  // the WHERE Matches evaluates (unbound: none)
  // The lazy WHERE reads identity columns only: every version of an identity matches alike.
  bool identity_where_ = false;
  mutable std::vector<int32_t> slot_of_identity_;
  // The identities by their value in one identity column, for a WHERE that bounds that
  // column: Expect visits only the identities in the bounds instead of every identity. Built
  // for a column when a query first needs it, and brought up to date with the identities
  // registered since at each use. Values in TotalOrder.
  struct ValueLess {
    bool operator()(const model::Value& a, const model::Value& b) const {
      return model::TotalOrder(a, b) < 0;
    }
  };
  struct ColumnIndex {
    size_t column = 0;
    uint32_t indexed = 0;  // identities_[0, indexed) are in `identities`
    std::map<model::Value, std::vector<uint32_t>, ValueLess> identities;
  };
  // The identities whose `column` value may lie in [low, high] (a bound may be absent), in
  // registration order, into `out`.
  void IdentitiesInRange(size_t column, const model::Value* low, const model::Value* high,
                         std::vector<uint32_t>& out);
  std::vector<ColumnIndex> column_indexes_;
  std::vector<uint32_t> candidates_;  // scratch of Expect
};

}  // namespace repartsim::check
