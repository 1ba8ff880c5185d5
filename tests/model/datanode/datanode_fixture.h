// Shared fixture for the datanode tests: a table (a Int64 primary key and partition column,
// ts timestamp time index, v Int64 value), row builders, a scan helper and a crash hook that
// fires at one named site.
#pragma once

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/datanode/datanode.h"
#include "model/datanode/object_store.h"

namespace repartsim::model::testing {

inline TableSchema TestSchema(bool append_mode = false) {
  // Built in one initialisation: assigning the name after default construction trips GCC
  // 12's false -Wrestrict (a string assign inlined into memcpy) at -O2.
  return TableSchema{.name = std::string("t"),
                     .columns = {Column{"a", ColumnType::kInt64, true},
                                 Column{"ts", ColumnType::kTimestamp, false},
                                 Column{"v", ColumnType::kInt64, true}},
                     .primary_key = {0},
                     .time_index = 1,
                     .partition_columns = {"a"},
                     .append_mode = append_mode};
}

inline Row R(int64_t a, int64_t ts, int64_t v) {
  return Row{Value::Int(a), Value::Timestamp(ts), Value::Int(v)};
}
inline Row RNull(int64_t ts, int64_t v) {
  return Row{Value::Null(), Value::Timestamp(ts), Value::Int(v)};
}

inline PartitionExpr Lt(int64_t x) {
  return PartitionExpr::Leaf("a", CompareOp::kLt, Value::Int(x));
}
inline PartitionExpr GtEq(int64_t x) {
  return PartitionExpr::Leaf("a", CompareOp::kGtEq, Value::Int(x));
}
inline PartitionExpr Range(int64_t lo, int64_t hi) { return PartitionExpr::And(GtEq(lo), Lt(hi)); }
inline uint64_t V(const PartitionExpr& e) { return ExprVersion(&e); }

inline const RegionId kR0 = RegionId::Of(TableId{1024}, RegionNumber{0});
inline const RegionId kR1 = RegionId::Of(TableId{1024}, RegionNumber{1});
inline const RegionId kR3 = RegionId::Of(TableId{1024}, RegionNumber{3});

class CrashAt final : public CrashHook {
 public:
  explicit CrashAt(std::string site) : site_(std::move(site)) {}
  bool ShouldCrash(std::string_view site) override {
    if (site != site_ || fired_) return false;
    fired_ = true;
    return true;
  }
  bool fired() const { return fired_; }

 private:
  std::string site_;
  bool fired_ = false;
};

// Opens `region` on `dn` as a leader with the files of `from`'s manifest and expression
// `expr`, as a region that adopted them by a repartition.
inline void OpenSharingFilesOf(Datanode& dn, ObjectStore& store, RegionId from, RegionId region,
                               std::optional<PartitionExpr> expr) {
  RegionManifest m = *store.Manifest(from);
  m.region_id = region;
  m.partition_expr = std::move(expr);
  store.PutManifest(m);
  ASSERT_TRUE(dn.HandleOpenRegion(region, store).ok());
  ASSERT_TRUE(dn.ApplyLease(region, RegionRole::kLeader, sim::AtMs(10000), Protocol::Greptime()));
}

inline std::vector<Row> Scan(const Datanode& dn, RegionId region, const ObjectStore& store) {
  ScanReply reply = dn.HandleScan(region, std::nullopt, Protocol::Greptime(), store);
  EXPECT_TRUE(reply.ok()) << reply.message;
  return reply.rows;
}

}  // namespace repartsim::model::testing
