#include "model/run/workload.h"

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

model::Value RandomValue(const model::Column& column, const scenario::ColumnDomain& domain,
                         sim::Prng& prng) {
  if (column.nullable && prng.Chance(domain.null)) return model::Value::Null();
  switch (column.type) {
    case model::ColumnType::kString: {
      const std::vector<std::string>& strings = domain.strings;
      REPARTSIM_ASSERT(!strings.empty());
      return model::Value::String(strings[prng.Below(strings.size())]);
    }
    case model::ColumnType::kBool:
      return model::Value::Bool(prng.Below(2) == 1);
    default: {
      const uint64_t span = static_cast<uint64_t>(domain.max - domain.min) + 1;
      const int64_t n = domain.min + static_cast<int64_t>(prng.Below(span));
      auto value = model::ConvertToColumnType(model::Value::Int(n), column.type);
      // Out of the column's range (a domain wider than an Int8): clamp to the domain's min.
      if (!value.ok()) return model::ConvertToColumnType(model::Value::Int(0), column.type).value();
      return value.value();
    }
  }
}

size_t FilterColumn(const scenario::Scenario& s) {
  const model::TableSchema& schema = s.table.schema;
  if (!s.table.rule.columns.empty()) {
    if (auto index = schema.FindColumn(s.table.rule.columns[0])) return *index;
  }
  return 0;
}

model::QueryOp RandomQuery(const scenario::Scenario& s, uint32_t frontend, sim::Prng& prng) {
  const scenario::QueryShape shape = s.workload.queries[prng.Below(s.workload.queries.size())];
  const model::TableSchema& schema = s.table.schema;
  model::QueryOp op{frontend, s.table_id(), false, std::nullopt, "SELECT * FROM " + schema.name};
  const model::Column& column = schema.columns[FilterColumn(s)];
  scenario::ColumnDomain domain = DomainOf(s, column);
  domain.null = sim::Ratio::Never();
  switch (shape) {
    case scenario::QueryShape::kAll:
      break;
    case scenario::QueryShape::kCount:
      op.count_star = true;
      op.sql = "SELECT count(*) FROM " + schema.name;
      break;
    case scenario::QueryShape::kPoint:
      op.where = model::Predicate::Compare(column.name, model::CompareOp::kEq,
                                           RandomValue(column, domain, prng));
      break;
    case scenario::QueryShape::kRange: {
      model::Value a = RandomValue(column, domain, prng);
      model::Value b = RandomValue(column, domain, prng);
      if (model::TotalOrder(b, a) < 0) std::swap(a, b);
      op.where =
          model::Predicate::And(model::Predicate::Compare(column.name, model::CompareOp::kGtEq, a),
                                model::Predicate::Compare(column.name, model::CompareOp::kLtEq, b));
      break;
    }
  }
  if (op.where) op.sql += " WHERE " + op.where->ToSql();
  return op;
}

// The next issue time: uniform in [interval/2, 3*interval/2], mean = interval.
int64_t Next(int64_t t, int64_t interval, sim::Prng& prng) {
  return t + interval / 2 + static_cast<int64_t>(prng.Below(static_cast<uint64_t>(interval) + 1));
}

}  // namespace

model::Row RandomRow(const scenario::Scenario& s, sim::Prng& prng) {
  model::Row row;
  row.reserve(s.table.schema.columns.size());
  for (const model::Column& column : s.table.schema.columns) {
    row.push_back(RandomValue(column, DomainOf(s, column), prng));
  }
  return row;
}

std::vector<WorkloadOp> DrawWorkload(const scenario::Scenario& s, sim::Prng& prng) {
  std::vector<WorkloadOp> out;
  const scenario::Workload& w = s.workload;
  if (!w.enabled) return out;
  for (uint32_t fe = 0; fe < s.frontend_count; ++fe) {
    for (uint32_t writer = 0; writer < w.writers_per_frontend; ++writer) {
      for (int64_t t = w.start_ms + static_cast<int64_t>(prng.Below(w.write_interval_ms));
           t < w.end_ms; t = Next(t, w.write_interval_ms, prng)) {
        model::InsertOp op{fe, s.table_id(), {}, model::WritePath::kRow};
        if (prng.Chance(w.bulk)) {
          op.path = model::WritePath::kBatcher;
        } else if (!w.flight.IsNever() && prng.Chance(w.flight)) {
          // (Drawn only when asked for, so workloads without Flight keep their sequences.)
          op.path = model::WritePath::kFlight;
        }
        const uint64_t rows = 1 + prng.Below(w.rows_per_write_max);
        for (uint64_t r = 0; r < rows; ++r) op.rows.push_back(RandomRow(s, prng));
        out.push_back(WorkloadOp{t, std::move(op)});
      }
    }
    for (uint32_t reader = 0; reader < w.readers_per_frontend; ++reader) {
      for (int64_t t = w.start_ms + static_cast<int64_t>(prng.Below(w.read_interval_ms));
           t < w.end_ms; t = Next(t, w.read_interval_ms, prng)) {
        out.push_back(WorkloadOp{t, RandomQuery(s, fe, prng)});
      }
    }
  }
  return out;
}

WorkloadCounts ScheduleWorkload(const scenario::Scenario& s, sim::Prng& prng,
                                model::Cluster& cluster) {
  WorkloadCounts counts;
  // Pushed in time order (ties in draw order), so each push lands at the queue's end instead
  // of moving the later ops of the streams drawn before it; the queue's order is the same.
  std::vector<WorkloadOp> ops = DrawWorkload(s, prng);
  std::stable_sort(ops.begin(), ops.end(),
                   [](const WorkloadOp& a, const WorkloadOp& b) { return a.at_ms < b.at_ms; });
  for (WorkloadOp& op : ops) {
    if (std::holds_alternative<model::InsertOp>(op.statement)) {
      ++counts.inserts;
    } else {
      ++counts.queries;
    }
    cluster.Schedule(sim::AtMs(op.at_ms), std::move(op.statement));
  }
  return counts;
}

}  // namespace repartsim::run
