// Datanode hot paths: HandleWrite (fence check + WAL append + memtable append) in writes/s and
// rows/s, and the cost of one snapshot (copy) and one fingerprint of a datanode (plus its object
// store) holding 10,000 rows, half flushed to SSTs and half in the memtable.
#include <benchmark/benchmark.h>

#include <vector>

#include "model/datanode/datanode.h"

namespace repartsim::model {
namespace {

TableSchema BenchSchema() {
  TableSchema s;
  s.name = std::string(1, 't');  // operator=(const char*) trips a GCC 12 -Wrestrict false positive
  s.columns = {Column{"a", ColumnType::kInt64, true}, Column{"ts", ColumnType::kTimestamp, false},
               Column{"v", ColumnType::kInt64, true}};
  s.primary_key = {0};
  s.time_index = 1;
  s.partition_columns = {"a"};
  return s;
}

const RegionId kRegion = RegionId::Of(TableId{1024}, RegionNumber{0});
const PartitionExpr kExpr = PartitionExpr::Leaf("a", CompareOp::kLt, Value::Int(1000000));

std::vector<Row> Batch(int64_t first, int64_t rows) {
  std::vector<Row> out;
  out.reserve(static_cast<size_t>(rows));
  for (int64_t i = 0; i < rows; ++i) {
    out.push_back(Row{Value::Int((first + i) % 1000), Value::Timestamp(first + i), Value::Int(i)});
  }
  return out;
}

void BM_HandleWrite(benchmark::State& state) {
  const int64_t rows_per_write = state.range(0);
  const uint64_t version = ExprVersion(&kExpr);
  const Protocol protocol = Protocol::Greptime();
  NoCrashHook no_crash;
  ObjectStore store;
  Datanode dn{NodeId{1}};
  dn.HandleCreateRegion(kRegion, BenchSchema(), kExpr, store, no_crash);
  // Rows are prepared 1,024 writes at a time outside the timed region, and the memtable is
  // flushed at the same points, so the timing covers HandleWrite alone.
  constexpr size_t kChunk = 1024;
  std::vector<std::vector<Row>> pending;
  size_t used = kChunk;
  int64_t next = 0;
  for (auto _ : state) {
    if (used == kChunk) {
      state.PauseTiming();
      dn.HandleFlush(kRegion, store, no_crash);
      pending.clear();
      for (size_t i = 0; i < kChunk; ++i, next += rows_per_write) {
        pending.push_back(Batch(next, rows_per_write));
      }
      used = 0;
      state.ResumeTiming();
    }
    Reply r = dn.HandleWrite(kRegion, std::move(pending[used++]), version, protocol, no_crash);
    benchmark::DoNotOptimize(r);
  }
  state.counters["writes_per_s"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  state.counters["rows_per_s"] = benchmark::Counter(
      static_cast<double>(state.iterations() * rows_per_write), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_HandleWrite)->Arg(1)->Arg(10)->Arg(100);

struct Loaded {
  Datanode dn{NodeId{1}};
  ObjectStore store;
};

Loaded Load10k() {
  Loaded l;
  NoCrashHook no_crash;
  const uint64_t version = ExprVersion(&kExpr);
  l.dn.HandleCreateRegion(kRegion, BenchSchema(), kExpr, l.store, no_crash);
  for (int64_t i = 0; i < 1000; ++i) {
    l.dn.HandleWrite(kRegion, Batch(i * 10, 10), version, Protocol::Greptime(), no_crash);
    if (i == 499) l.dn.HandleFlush(kRegion, l.store, no_crash);
  }
  return l;
}

void BM_Snapshot10kRows(benchmark::State& state) {
  Loaded l = Load10k();
  for (auto _ : state) {
    Datanode copy = l.dn;
    ObjectStore store_copy = l.store;
    benchmark::DoNotOptimize(copy);
    benchmark::DoNotOptimize(store_copy);
  }
}
BENCHMARK(BM_Snapshot10kRows);

void BM_Fingerprint10kRows(benchmark::State& state) {
  Loaded l = Load10k();
  for (auto _ : state) {
    sim::Hasher h;
    l.dn.Hash(h);
    l.store.Hash(h);
    benchmark::DoNotOptimize(h.Finish());
  }
}
BENCHMARK(BM_Fingerprint10kRows);

void BM_Scan10kRows(benchmark::State& state) {
  Loaded l = Load10k();
  for (auto _ : state) {
    ScanReply r = l.dn.HandleScan(kRegion, std::nullopt, Protocol::Greptime(), l.store);
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_Scan10kRows);

}  // namespace
}  // namespace repartsim::model

BENCHMARK_MAIN();
