#include "checker/run/query_watch.h"

#include <algorithm>
#include <deque>
#include <limits>
#include <type_traits>

#include "checker/run/history_retention.h"
#include "sim/assert.h"

namespace repartsim::run {

namespace {

check::Oracle OpenOracle(const model::TableSchema& schema) {
  auto oracle = check::Oracle::Open(schema);
  REPARTSIM_ASSERT_MSG(oracle.ok(), "in-memory oracle must open");
  return std::move(oracle).value();
}

// Gives the oracle write `w`'s outcome; false while it has none.
bool Resolve(const model::WriteRecord& w, check::Oracle& oracle) {
  switch (w.status) {
    case model::WriteStatus::kAcked:
      oracle.Acknowledge(w.id, w.end_step);
      return true;
    case model::WriteStatus::kRejected:
      oracle.Reject(w.id, w.end_step);
      return true;
    case model::WriteStatus::kUnknown:
      oracle.MarkUnknown(w.id, w.end_step);
      return true;
    case model::WriteStatus::kPending:
      return false;  // still in flight: a maybe row
  }
  REPARTSIM_UNREACHABLE();
}

}  // namespace

check::QuerySpec QuerySpecOf(const model::QueryRecord& q) {
  check::QuerySpec spec;
  spec.where_sql = q.where ? q.where->ToSql() : "";
  spec.where = q.where ? &*q.where : nullptr;
  spec.start_step = q.start_step;
  spec.end_step = q.end_step;
  return spec;
}

QueryWatch::QueryWatch(model::TableId table, const model::TableSchema& schema)
    : table_(table), oracle_(OpenOracle(schema)) {}

// The oracle reads each write's rows where the History keeps them: appending to the History's
// deque of records never moves one, and a record's rows change only when AfterStep packs them,
// once the oracle no longer reads them (Oracle::TakeColdWrites).

void QueryWatch::RegisterWrites(const model::History& history) {
  for (; next_write_ < history.writes.size(); ++next_write_) {
    const model::WriteRecord& w = history.writes[next_write_];
    latest_start_ = std::max(latest_start_, w.start_step);
    if (w.table != table_) continue;
    // The History keeps the rows in place: its writes are a deque (appending moves no record)
    // and a record's rows change only when packed, after the oracle released them.
    static_assert(std::is_same_v<decltype(model::History::writes), std::deque<model::WriteRecord>>);
    oracle_.RegisterWriteInPlace(w.id, w.start_step, w.rows);
    if (!Resolve(w, oracle_)) pending_writes_.push_back(next_write_);
  }
  std::erase_if(pending_writes_,
                [&](size_t index) { return Resolve(history.writes[index], oracle_); });
}

bool QueryWatch::CheckQuery(const model::QueryRecord& q) {
  ++checked_;
  const check::QuerySpec spec = QuerySpecOf(q);
  if (q.count_star) {
    sim::Result<check::CountRange> range = oracle_.ExpectCount(spec);
    return !range.ok() || (q.count >= range.value().min && q.count <= range.value().max);
  }
  sim::Result<check::QueryDiff> diff = oracle_.Check(spec, q.rows);
  return !diff.ok() || diff.value().empty();
}

void QueryWatch::AfterStep(model::Cluster& cluster) {
  model::History& history = cluster.history_for_retention();
  for (size_t index : Advance(history)) ReleasePassedQuery(history, index);
  // Passed queries at the front are only counted from now on.
  while (forget_ && !history.queries.empty() && Passed(history.retired_queries)) {
    RetireFrontQuery(history);
  }
  for (check::WriteId id : oracle_.TakeColdWrites()) {
    REPARTSIM_ASSERT(!oracle_.ReadsInPlace(id));  // its rows are about to be freed
    PackWriteRows(history, id);
  }
}

const std::vector<size_t>& QueryWatch::Advance(const model::History& history) {
  passed_now_.clear();
  RegisterWrites(history);
  for (; next_query_ < history.retired_queries + history.queries.size(); ++next_query_) {
    const model::QueryRecord& q = history.Query(next_query_ + 1);
    latest_start_ = std::max(latest_start_, q.start_step);
    if (q.table == table_) open_queries_.push_back(next_query_);
  }
  if (open_queries_.empty()) return passed_now_;
  // A query is decidable once no write issued at or before its last step is still in flight.
  uint64_t first_pending_issue = std::numeric_limits<uint64_t>::max();
  for (size_t index : pending_writes_) {
    first_pending_issue = std::min(first_pending_issue, history.writes[index].start_step);
  }
  // Every query the oracle is asked about from now on starts at or after the horizon: an open
  // query, one that failed (the end-of-run checker judges it again), or one issued later
  // (at or after the latest step a record was issued at).
  uint64_t horizon = std::min(latest_start_, failed_start_min_);
  for (size_t index : open_queries_) {
    horizon = std::min(horizon, history.Query(index + 1).start_step);
  }
  if (forget_) oracle_.set_horizon(horizon);
  std::erase_if(open_queries_, [&](size_t index) {
    const model::QueryRecord& q = history.Query(index + 1);
    if (q.status == model::QueryStatus::kError) return true;  // nothing to check
    if (q.status != model::QueryStatus::kOk || q.end_step >= first_pending_issue) return false;
    if (CheckQuery(q)) {
      if (passed_.size() <= index) passed_.resize(index + 1, 0);
      passed_[index] = 1;
      passed_now_.push_back(index);
    } else {
      failed_start_min_ = std::min(failed_start_min_, q.start_step);
    }
    return true;
  });
  return passed_now_;
}

void QueryWatch::Finish(const model::History& history) { RegisterWrites(history); }

}  // namespace repartsim::run
