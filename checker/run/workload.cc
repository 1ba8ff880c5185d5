#include "checker/run/workload.h"

#include <algorithm>
#include <vector>

#include "sim/assert.h"

namespace repartsim::run {

namespace {

const scenario::ColumnDomain& DomainOf(const scenario::Scenario& s, const model::Column& column) {
  static const scenario::ColumnDomain kDefault{
      0, 99, {"s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7"}, sim::Ratio::Never()};
  auto it = s.workload.columns.find(column.name);
  return it == s.workload.columns.end() ? kDefault : it->second;
}

// Draws a value of `column` into *out, or only makes the PRNG calls drawing it makes when
// `out` is null (the feeder's first pass, which finds where each stream starts).
void DrawValue(const model::Column& column, const scenario::ColumnDomain& domain, sim::Prng& prng,
               model::Value* out) {
  if (column.nullable && prng.Chance(domain.null)) {
    if (out != nullptr) *out = model::Value::Null();
    return;
  }
  switch (column.type) {
    case model::ColumnType::kString: {
      const std::vector<std::string>& strings = domain.strings;
      REPARTSIM_ASSERT(!strings.empty());
      const uint64_t i = prng.Below(strings.size());
      if (out != nullptr) *out = model::Value::String(strings[i]);
      return;
    }
    case model::ColumnType::kBool: {
      const bool b = prng.Below(2) == 1;
      if (out != nullptr) *out = model::Value::Bool(b);
      return;
    }
    default: {
      const uint64_t span = static_cast<uint64_t>(domain.max - domain.min) + 1;
      const int64_t n = domain.min + static_cast<int64_t>(prng.Below(span));
      if (out == nullptr) return;
      auto value = model::ConvertToColumnType(model::Value::Int(n), column.type);
      // Out of the column's range (a domain wider than an Int8): clamp to the domain's min.
      *out = value.ok() ? value.value()
                        : model::ConvertToColumnType(model::Value::Int(0), column.type).value();
      return;
    }
  }
}

// Draws a row into *out, or only its PRNG calls when `out` is null.
void DrawRow(const scenario::Scenario& s, sim::Prng& prng, model::Row* out) {
  if (out != nullptr) out->reserve(s.table.schema.columns.size());
  for (const model::Column& column : s.table.schema.columns) {
    model::Value* value = out != nullptr ? &out->emplace_back() : nullptr;
    DrawValue(column, DomainOf(s, column), prng, value);
  }
}

size_t FilterColumn(const scenario::Scenario& s) {
  const model::TableSchema& schema = s.table.schema;
  if (!s.table.rule.columns.empty()) {
    if (auto index = schema.FindColumn(s.table.rule.columns[0])) return *index;
  }
  return 0;
}

// Draws a query into *out, or only its PRNG calls when `out` is null.
void DrawQuery(const scenario::Scenario& s, uint32_t frontend, sim::Prng& prng,
               model::QueryOp* out) {
  const scenario::QueryShape shape = s.workload.queries[prng.Below(s.workload.queries.size())];
  const model::TableSchema& schema = s.table.schema;
  const model::Column& column = schema.columns[FilterColumn(s)];
  scenario::ColumnDomain domain = DomainOf(s, column);
  domain.null = sim::Ratio::Never();
  model::Value a;
  model::Value b;
  model::Value* pa = out != nullptr ? &a : nullptr;
  model::Value* pb = out != nullptr ? &b : nullptr;
  switch (shape) {
    case scenario::QueryShape::kAll:
    case scenario::QueryShape::kCount:
      break;
    case scenario::QueryShape::kPoint:
      DrawValue(column, domain, prng, pa);
      break;
    case scenario::QueryShape::kRange:
      DrawValue(column, domain, prng, pa);
      DrawValue(column, domain, prng, pb);
      break;
  }
  if (out == nullptr) return;
  model::QueryOp op{frontend, s.table_id(), false, std::nullopt, "SELECT * FROM " + schema.name};
  switch (shape) {
    case scenario::QueryShape::kAll:
      break;
    case scenario::QueryShape::kCount:
      op.count_star = true;
      op.sql = "SELECT count(*) FROM " + schema.name;
      break;
    case scenario::QueryShape::kPoint:
      op.where = model::Predicate::Compare(column.name, model::CompareOp::kEq, std::move(a));
      break;
    case scenario::QueryShape::kRange:
      if (model::TotalOrder(b, a) < 0) std::swap(a, b);
      op.where = model::Predicate::And(
          model::Predicate::Compare(column.name, model::CompareOp::kGtEq, std::move(a)),
          model::Predicate::Compare(column.name, model::CompareOp::kLtEq, std::move(b)));
      break;
  }
  if (op.where) op.sql += " WHERE " + op.where->ToSql();
  *out = std::move(op);
}

// The next issue time: uniform in [interval/2, 3*interval/2], mean = interval.
int64_t Next(int64_t t, int64_t interval, sim::Prng& prng) {
  return t + interval / 2 + static_cast<int64_t>(prng.Below(static_cast<uint64_t>(interval) + 1));
}

int64_t IntervalOf(const scenario::Workload& w, bool writer) {
  return writer ? w.write_interval_ms : w.read_interval_ms;
}

// A stream before its first statement: draws that statement's time.
WorkloadStream StartStream(const scenario::Scenario& s, bool writer, uint32_t frontend,
                           const sim::Prng& prng) {
  const scenario::Workload& w = s.workload;
  WorkloadStream stream{writer, frontend, prng, 0};
  stream.next_at_ms = w.start_ms + static_cast<int64_t>(stream.prng.Below(IntervalOf(w, writer)));
  return stream;
}

bool StreamDone(const scenario::Scenario& s, const WorkloadStream& stream) {
  return stream.next_at_ms >= s.workload.end_ms;
}

// Draws the stream's statement due at next_at_ms into *out (only its PRNG calls when `out` is
// null) and the time of the one after it. REQUIRES: !StreamDone(s, stream).
void DrawNext(const scenario::Scenario& s, WorkloadStream& stream, WorkloadOp* out) {
  REPARTSIM_ASSERT(!StreamDone(s, stream));
  const scenario::Workload& w = s.workload;
  if (out != nullptr) out->at_ms = stream.next_at_ms;
  if (stream.writer) {
    model::InsertOp op{stream.frontend, s.table_id(), {}, model::WritePath::kRow};
    if (stream.prng.Chance(w.bulk)) {
      op.path = model::WritePath::kBatcher;
    } else if (!w.flight.IsNever() && stream.prng.Chance(w.flight)) {
      // (Drawn only when asked for, so workloads without Flight keep their sequences.)
      op.path = model::WritePath::kFlight;
    }
    const uint64_t rows = 1 + stream.prng.Below(w.rows_per_write_max);
    if (out != nullptr) op.rows.reserve(rows);
    for (uint64_t r = 0; r < rows; ++r) {
      DrawRow(s, stream.prng, out != nullptr ? &op.rows.emplace_back() : nullptr);
    }
    if (out != nullptr) out->statement = std::move(op);
  } else {
    model::QueryOp query;
    DrawQuery(s, stream.frontend, stream.prng, out != nullptr ? &query : nullptr);
    if (out != nullptr) out->statement = std::move(query);
  }
  stream.next_at_ms = Next(stream.next_at_ms, IntervalOf(w, stream.writer), stream.prng);
}

// Every stream at its first statement, in draw order (per frontend its writers, then its
// readers), with `prng` advanced past the whole workload and `counts` set.
std::vector<WorkloadStream> PlanStreams(const scenario::Scenario& s, sim::Prng& prng,
                                        WorkloadCounts& counts) {
  std::vector<WorkloadStream> out;
  const scenario::Workload& w = s.workload;
  if (!w.enabled) return out;
  const uint32_t frontends = w.frontend_count == 0 ? s.frontend_count : w.frontend_count;
  REPARTSIM_ASSERT(frontends <= s.frontend_count);
  for (uint32_t fe = 0; fe < frontends; ++fe) {
    for (bool writer : {true, false}) {
      const uint32_t n = writer ? w.writers_per_frontend : w.readers_per_frontend;
      for (uint32_t i = 0; i < n; ++i) {
        WorkloadStream stream = StartStream(s, writer, fe, prng);
        out.push_back(stream);
        for (; !StreamDone(s, stream); DrawNext(s, stream, nullptr)) {
          ++(writer ? counts.inserts : counts.queries);
        }
        prng = stream.prng;
      }
    }
  }
  return out;
}

}  // namespace

model::Row RandomRow(const scenario::Scenario& s, sim::Prng& prng) {
  model::Row row;
  DrawRow(s, prng, &row);
  return row;
}

std::vector<WorkloadOp> DrawWorkload(const scenario::Scenario& s, sim::Prng& prng) {
  WorkloadCounts counts;
  std::vector<WorkloadOp> out;
  for (WorkloadStream& stream : PlanStreams(s, prng, counts)) {
    while (!StreamDone(s, stream)) DrawNext(s, stream, &out.emplace_back());
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const WorkloadOp& a, const WorkloadOp& b) { return a.at_ms < b.at_ms; });
  return out;
}

WorkloadFeeder::WorkloadFeeder(const scenario::Scenario& s, sim::Prng& prng,
                               model::Cluster& cluster)
    : scenario_(s), streams_(PlanStreams(s, prng, counts_)) {
  first_seq_ = cluster.ReserveOpSeqs(streams_.size());
  ops_taken_ = cluster.ops_taken();
  for (size_t i = 0; i < streams_.size(); ++i) ScheduleNext(i, cluster);
}

void WorkloadFeeder::AfterStep(model::Cluster& cluster) {
  if (cluster.ops_taken() == ops_taken_) return;
  ops_taken_ = cluster.ops_taken();
  const uint64_t seq = cluster.last_op_seq();
  if (seq >= first_seq_ && seq - first_seq_ < streams_.size())
    ScheduleNext(seq - first_seq_, cluster);
}

void WorkloadFeeder::ScheduleNext(size_t stream, model::Cluster& cluster) {
  WorkloadStream& s = streams_[stream];
  if (StreamDone(scenario_, s)) return;
  WorkloadOp op;
  DrawNext(scenario_, s, &op);
  cluster.ScheduleReserved(sim::AtMs(op.at_ms), first_seq_ + stream, std::move(op.statement));
}

}  // namespace repartsim::run
