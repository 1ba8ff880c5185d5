// Query checking as the run goes, so that a run keeps only the query results it has not
// judged yet. The watch feeds the oracle from the History after each step (each write when it
// is issued, its outcome when the frontend learns it) and checks a completed query as soon as
// every write issued up to its end has an outcome: from then on, nothing that happens later
// changes which rows the query must, may or must not return. A query whose rows match the
// expectation has passed for good; the watch releases its rows and statement text
// (run::ReleasePassedQuery). A query that does not match is
// left to the end-of-run checker (CheckRun), which judges it with the run's final history,
// exactly as if no watch had run: its message, its READ-ANOMALY context and its explanation
// depend on what happened after it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "checker/check/oracle.h"
#include "model/cluster/cluster.h"

namespace repartsim::run {

// The oracle's view of a completed query: its WHERE text and its step interval.
check::QuerySpec QuerySpecOf(const model::QueryRecord& q);

class QueryWatch {
 public:
  // Watches the queries and writes of table `table`, whose schema is `schema`.
  QueryWatch(model::TableId table, const model::TableSchema& schema);

  // The oracle reads the rows of the History's writes in place: the History the watch is
  // given must outlive every use of oracle().
  // After each step: registers new writes and outcomes, checks every query that has become
  // decidable, releases the rows and statements of those that passed, packs the rows of the
  // writes the oracle no longer reads (run::PackWriteRows) and retires the passed queries
  // at the front of the History (run::RetireFrontQuery).
  void AfterStep(model::Cluster& cluster);
  // AfterStep on a history alone: returns the indices of the queries that passed in this
  // call (their rows are the caller's to release). Valid until the next call.
  const std::vector<size_t>& Advance(const model::History& history);
  // At the end of the run: registers what is left, so that oracle() holds every write of the
  // run with its final outcome (the end-of-run checker reuses it).
  void Finish(const model::History& history);

  check::Oracle& oracle() { return oracle_; }
  // True iff queries[index] was checked during the run and matched its expectation (or its
  // WHERE text cannot be evaluated, which the end-of-run check would not report either).
  bool Passed(size_t index) const { return index < passed_.size() && passed_[index] != 0; }
  uint64_t checked() const { return checked_; }
  // On by default: the oracle forgets the versions no query still to be judged can see
  // (check::Oracle::set_horizon), and AfterStep packs forgotten writes' rows and retires
  // passed queries. Off keeps every version and record, as a reference for tests.
  void set_forget(bool on) { forget_ = on; }

 private:
  void RegisterWrites(const model::History& history);
  bool CheckQuery(const model::QueryRecord& q);

  model::TableId table_;
  check::Oracle oracle_;
  size_t next_write_ = 0;               // history.writes registered before this index
  size_t next_query_ = 0;               // history.queries seen before this index
  std::vector<size_t> pending_writes_;  // registered, no outcome yet
  std::vector<size_t> open_queries_;    // seen, not yet checked
  std::vector<uint8_t> passed_;         // by query index
  std::vector<size_t> passed_now_;      // Advance's answer
  uint64_t checked_ = 0;
  uint64_t latest_start_ = 0;  // the latest issue step of a History record seen
  uint64_t failed_start_min_ = std::numeric_limits<uint64_t>::max();  // of failed queries
  bool forget_ = true;
};

}  // namespace repartsim::run
