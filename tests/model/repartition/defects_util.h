// Helpers of the suspected-defect tests (docs/findings.md, P1..P13): queries with a WHERE
// predicate, the partition values of result rows as a sorted multiset, write/DDL/procedure
// lookups, and the "held AllocateRegion window": a metasrv crash right after AllocateRegion's
// route commit (before Dispatch is persisted), a restart, and a metasrv<->datanode partition
// that keeps the re-executed AllocateRegion::Execute waiting on a CreateRegion reply, so the
// overlapping route of docs/protocol.md section 10.3 (AllocateRegion) stays published for seconds.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "tests/model/repartition/repartition_harness.h"

namespace repartsim::model::testing {

inline constexpr size_t kColumnA = 3;  // host, ts, v, a

// The `a` values of `rows`, sorted; NULL is reported as -1.
inline std::vector<int64_t> AValues(const std::vector<Row>& rows) {
  std::vector<int64_t> out;
  for (const Row& row : rows) out.push_back(row[kColumnA].is_null() ? -1 : row[kColumnA].as_int());
  std::sort(out.begin(), out.end());
  return out;
}

inline void QueryWhere(RepartitionHarness& h, int64_t at_ms, uint32_t frontend, Predicate where,
                       const std::string& sql) {
  h.cluster.Schedule(sim::AtMs(at_ms), QueryOp{frontend, kTable, false, std::move(where), sql});
}

inline Predicate AGe(int64_t v) { return Predicate::Compare("a", CompareOp::kGtEq, Value::Int(v)); }

inline const MetaProcedureManager::Slot* ParentSlot(const RepartitionHarness& h,
                                                    size_t ddl_index = 0) {
  return h.cluster.metasrv().procedures().Find(
      ProcedureId{h.cluster.history().ddls.at(ddl_index).procedures.at(0)});
}

inline size_t CountLines(const RepartitionHarness& h, const std::string& needle) {
  return static_cast<size_t>(std::count_if(
      h.trace.lines().begin(), h.trace.lines().end(),
      [&](const std::string& line) { return line.find(needle) != std::string::npos; }));
}

// The rows a region holds on its datanode (memtable + visible files, unfiltered by the route),
// as `a` values: scanned directly, with no planned version.
inline std::vector<int64_t> RegionAValues(const RepartitionHarness& h, RegionId region) {
  for (uint32_t i = 0; i < h.cluster.config().datanode_count; ++i) {
    const Datanode& dn = h.cluster.datanode(h.cluster.datanode_id(i));
    if (!dn.is_up() || dn.FindRegion(region) == nullptr) continue;
    ScanReply reply =
        dn.HandleScan(region, std::nullopt, h.cluster.protocol(), h.cluster.object_store());
    return AValues(reply.rows);
  }
  return {};
}

// Holds the AllocateRegion window open (see the file comment): crash right after the route
// commit at `crash_site`'s first hit, restart at `restart_ms`, and cut metasrv <-> `datanode`
// from `cut_ms` to `heal_ms`.
inline void HoldAllocateWindow(RepartitionHarness& h, NodeId datanode, int64_t cut_ms,
                               int64_t restart_ms, int64_t heal_ms) {
  h.crash_plan.Script("Repartition.Dispatch.before_persist", 1);
  h.cluster.Schedule(sim::AtMs(cut_ms),
                     PartitionOp{{h.cluster.metasrv_id()}, {datanode}, /*symmetric=*/true});
  h.cluster.Schedule(sim::AtMs(restart_ms), RestartNodeOp{h.cluster.metasrv_id()});
  h.cluster.Schedule(sim::AtMs(heal_ms), HealOp{});
}

}  // namespace repartsim::model::testing
