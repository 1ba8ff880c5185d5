// Cost of the SQLite oracle (checker/check/oracle.h) for a 10,000-row table: per acknowledged
// write (register + acknowledge + the batched SQLite insert), and per checked query (Expect
// through SQLite plus the multiset Compare) for a selective partition-range query, a full
// scan and a count(*). Figures go to the issue note; the oracle must not dominate a run.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <string>
#include <vector>

#include "checker/check/oracle.h"

namespace repartsim::check {
namespace {

constexpr int kHosts = 100;
constexpr int kRowsPerHost = 100;  // 10,000 rows in all

model::TableSchema Schema() {
  model::TableSchema schema;
  schema.name = "cpu";
  schema.columns = {{"host", model::ColumnType::kString, true},
                    {"ts", model::ColumnType::kTimestamp, false},
                    {"usage", model::ColumnType::kFloat64, true},
                    {"n", model::ColumnType::kInt64, true}};
  schema.primary_key = {0};
  schema.time_index = 1;
  schema.partition_columns = {"host"};
  return schema;
}

std::string HostName(int h) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "h%03d", h);
  return buf;
}

model::Row MakeRow(int h, int t) {
  return model::Row{model::Value::String(HostName(h)), model::Value::Timestamp(t * 1000),
                    model::Value::Double(h * 0.5 + t), model::Value::Int(h * 1000 + t)};
}

// Registers and acknowledges all rows, `rows_per_write` rows per write.
void Fill(Oracle& oracle, int rows_per_write) {
  std::vector<model::Row> batch;
  WriteId id = 0;
  uint64_t step = 1;
  for (int h = 0; h < kHosts; ++h) {
    for (int t = 0; t < kRowsPerHost; ++t) {
      batch.push_back(MakeRow(h, t));
      if (static_cast<int>(batch.size()) == rows_per_write) {
        oracle.RegisterWrite(++id, step, std::move(batch));
        oracle.Acknowledge(id, step + 1);
        step += 2;
        batch.clear();
      }
    }
  }
  oracle.Flush();
}

void BM_AcknowledgedWrite(benchmark::State& state) {
  int rows_per_write = static_cast<int>(state.range(0));
  for (auto _ : state) {
    Oracle oracle = Oracle::Open(Schema()).value();
    Fill(oracle, rows_per_write);
    benchmark::DoNotOptimize(oracle.version_count());
  }
  state.SetItemsProcessed(state.iterations() * (kHosts * kRowsPerHost / rows_per_write));
  state.SetLabel("items = acknowledged writes of " + std::to_string(rows_per_write) + " rows");
}
BENCHMARK(BM_AcknowledgedWrite)->Arg(1)->Arg(10)->Unit(benchmark::kMillisecond);

std::vector<model::Row> Rows(int host_begin, int host_end) {
  std::vector<model::Row> out;
  for (int h = host_begin; h < host_end; ++h) {
    for (int t = 0; t < kRowsPerHost; ++t) out.push_back(MakeRow(h, t));
  }
  return out;
}

void CheckedQuery(benchmark::State& state, const std::string& where, int host_begin, int host_end) {
  Oracle oracle = Oracle::Open(Schema()).value();
  Fill(oracle, 10);
  QuerySpec spec{where, 1000000, 1000000, {}};
  std::vector<model::Row> actual = Rows(host_begin, host_end);
  for (auto _ : state) {
    Result<QueryDiff> diff = oracle.Check(spec, actual);
    if (!diff.ok() || !diff.value().empty()) state.SkipWithError("unexpected diff");
    benchmark::DoNotOptimize(diff);
  }
  state.SetItemsProcessed(state.iterations());
  state.SetLabel("items = checked queries returning " + std::to_string(actual.size()) + " rows");
}

void BM_CheckedQueryRange(benchmark::State& state) {
  CheckedQuery(state,
               "(\"host\" >= 'h050' AND \"host\" IS NOT NULL) AND "
               "(\"host\" < 'h060' OR \"host\" IS NULL)",
               50, 60);
}
BENCHMARK(BM_CheckedQueryRange)->Unit(benchmark::kMicrosecond);

void BM_CheckedQueryFullScan(benchmark::State& state) { CheckedQuery(state, "", 0, kHosts); }
BENCHMARK(BM_CheckedQueryFullScan)->Unit(benchmark::kMicrosecond);

void BM_CheckedQueryFieldPredicate(benchmark::State& state) {
  CheckedQuery(state, "n >= 50000 AND n < 60000", 50, 60);
}
BENCHMARK(BM_CheckedQueryFieldPredicate)->Unit(benchmark::kMicrosecond);

void BM_CountQuery(benchmark::State& state) {
  Oracle oracle = Oracle::Open(Schema()).value();
  Fill(oracle, 10);
  QuerySpec spec{"\"host\" < 'h010'", 1000000, 1000000, {}};
  for (auto _ : state) {
    Result<CountRange> range = oracle.ExpectCount(spec);
    if (!range.ok() || range.value().min != 10 * kRowsPerHost) state.SkipWithError("count");
    benchmark::DoNotOptimize(range);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_CountQuery)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace repartsim::check

BENCHMARK_MAIN();
