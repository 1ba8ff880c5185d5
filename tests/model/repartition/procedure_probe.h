// ProcedureProbe: steps a RepartitionHarness cluster event by event under the timed driver and
// looks inside the metasrv while it runs: the parent and group procedure slots and their body
// states, the trace lines a state produced, and a metasrv crash at an exact moment (the same
// effect as the cluster's CrashNodeOp: the metasrv drops its volatile state and the network
// drops everything in flight to or from it). Used by the per-state and crash-recovery tests.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "model/metasrv/meta_procedure.h"
#include "model/repartition/route_access.h"
#include "tests/model/repartition/repartition_harness.h"

namespace repartsim::model::testing {

using ParentState = RepartitionProcedure::State;
using GroupState = RepartitionGroupProcedure::State;
using Slot = MetaProcedureManager::Slot;

class ProcedureProbe {
 public:
  explicit ProcedureProbe(RepartitionHarness& h) : h_(h) {}

  // Steps until `done()` holds (checked before every step) or the run ends or passes
  // `time_ms_max`; true iff `done()` held.
  bool StepUntil(const std::function<bool()>& done, int64_t time_ms_max = 200000) {
    sim::RunOptions options;
    options.time_ms_max = time_ms_max;
    options.seed = 11;
    sim::Simulation<Cluster> simulation(h_.cluster, h_.chooser, h_.trace, h_.crash_plan,
                                        h_.crash_stats, options);
    while (!done()) {
      if (!simulation.Step()) return false;
      now_ms_ = std::max(now_ms_, simulation.now().ms);
    }
    return true;
  }
  // Runs until virtual time `time_ms` (every event at or before it fires).
  void RunUntil(int64_t time_ms) {
    StepUntil([] { return false; }, time_ms);
    now_ms_ = std::max(now_ms_, time_ms);
  }
  int64_t now_ms() const { return now_ms_; }

  // ---- procedures ---------------------------------------------------------------------------
  template <class T>
  static const T* BodyAs(const Slot& slot) {
    return MetaProcedureManager::BodyOf(slot).As<T>();
  }
  const Slot* ParentSlot() const {
    for (const auto& [id, slot] : procedures().slots()) {
      if (BodyAs<RepartitionProcedure>(slot) != nullptr) return &slot;
    }
    return nullptr;
  }
  const RepartitionProcedure* Parent() const {
    const Slot* slot = ParentSlot();
    return slot == nullptr ? nullptr : BodyAs<RepartitionProcedure>(*slot);
  }
  std::optional<ParentState> ParentStateNow() const {
    const RepartitionProcedure* p = Parent();
    if (p == nullptr) return std::nullopt;
    return p->state();
  }
  // Group slots in submission (id) order; after a restart only the re-dispatched ones exist.
  std::vector<const Slot*> GroupSlots() const {
    std::vector<const Slot*> out;
    for (const auto& [id, slot] : procedures().slots()) {
      if (BodyAs<RepartitionGroupProcedure>(slot) != nullptr) out.push_back(&slot);
    }
    return out;
  }
  const RepartitionGroupProcedure* Group(size_t index = 0) const {
    std::vector<const Slot*> slots = GroupSlots();
    return index < slots.size() ? BodyAs<RepartitionGroupProcedure>(*slots[index]) : nullptr;
  }
  std::optional<GroupState> GroupStateNow(size_t index = 0) const {
    const RepartitionGroupProcedure* g = Group(index);
    if (g == nullptr) return std::nullopt;
    return g->state();
  }

  // Steps until the parent is about to run `state` (it is the current state).
  bool ToParent(ParentState state) {
    return StepUntil([&] { return ParentStateNow() == state; });
  }
  // Steps until the parent has left `state` (or ended in it).
  bool PastParent(ParentState state) {
    return StepUntil([&] {
      const Slot* slot = ParentSlot();
      return slot == nullptr || ParentStateNow() != state ||
             !MetaProcedureManager::IsActive(slot->status);
    });
  }
  bool ToGroup(GroupState state, size_t index = 0) {
    return StepUntil([&] { return GroupStateNow(index) == state; });
  }
  bool PastGroup(GroupState state, size_t index = 0) {
    return StepUntil([&] {
      std::vector<const Slot*> slots = GroupSlots();
      if (index >= slots.size()) return false;
      return GroupStateNow(index) != state || !MetaProcedureManager::IsActive(slots[index]->status);
    });
  }

  // ---- trace --------------------------------------------------------------------------------
  size_t Mark() const { return h_.trace.lines().size(); }
  // Details of the lines since `mark` whose kind is `kind` ("ms.region_request", ...), each as
  // "<kind> <detail>".
  std::vector<std::string> LinesSince(size_t mark, const std::string& kind) const {
    std::vector<std::string> out;
    const std::vector<std::string>& lines = h_.trace.lines();
    for (size_t i = mark; i < lines.size(); ++i) {
      size_t pos = lines[i].find(" " + kind + " ");
      if (pos == std::string::npos) {
        if (lines[i].size() > kind.size() + 1 &&
            lines[i].compare(lines[i].size() - kind.size() - 1, std::string::npos, " " + kind) ==
                0) {
          out.push_back(kind);
        }
        continue;
      }
      out.push_back(lines[i].substr(pos + 1));
    }
    return out;
  }

  // ---- faults -------------------------------------------------------------------------------
  // Crashes the metasrv now, between two events.
  void CrashMetasrvNow() {
    h_.cluster.mutable_metasrv().Crash();
    h_.cluster.mutable_network().DropNode(h_.cluster.metasrv_id().value);
  }
  bool MetasrvUp() const { return h_.cluster.metasrv().is_up(); }
  // Steps until the metasrv went down (a scripted crash point fired).
  bool ToMetasrvCrash(int64_t time_ms_max = 200000) {
    return StepUntil([&] { return !MetasrvUp(); }, time_ms_max);
  }
  void RestartMetasrvAt(int64_t at_ms) {
    h_.cluster.Schedule(sim::AtMs(at_ms), RestartNodeOp{h_.cluster.metasrv_id()});
  }

  // The latest durable record of procedure `id` as "<kind> <state>" ("step Dispatch",
  // "rollback Collect"), or "<none>".
  std::string LatestRecord(ProcedureId id) const {
    for (const ProcedureRecord& record : procedures().store().Latest()) {
      if (record.id != id) continue;
      sim::Result<MetaProcedure> body = MetaProcedure::Load(record.type, record.body.dump());
      const char* kind = record.kind == RecordKind::kStep     ? "step"
                         : record.kind == RecordKind::kCommit ? "commit"
                                                              : "rollback";
      return std::string(kind) + " " + (body.ok() ? body.value().state_name() : "<corrupt>");
    }
    return "<none>";
  }

  const MetaProcedureManager& procedures() const { return h_.cluster.metasrv().procedures(); }
  size_t RecordCount() const { return procedures().store().record_count(); }

 private:
  RepartitionHarness& h_;
  int64_t now_ms_ = 0;
};

// Region numbers as the trace prints them: "4398046511104(1024, 0)".
inline std::string R(uint32_t number) { return RegionN(number).ToString(); }

// A partition expression from its SQL text (parsed as the source of a one-region MERGE).
inline PartitionExpr Expr(const std::string& text) {
  auto statements = sql::ParseStatements("ALTER TABLE t MERGE PARTITION (" + text + ")", "<expr>");
  REPARTSIM_ASSERT_MSG(statements.ok(), "test expression does not parse");
  return std::get<sql::AlterRepartition>(statements.value().at(0).body).from.at(0).expr;
}

// Rewrites the stored route of table t (a fixture edit: metadata "given before" a state).
inline void EditRoute(RepartitionHarness& h,
                      const std::function<void(std::vector<RegionRoute>&)>& edit) {
  KvStore& kv = h.cluster.mutable_metasrv().mutable_kv();
  const std::string raw = kv.Get(TableRouteKey(kTable)).value();
  const TableRoute route = *ReadTableRoute(kv, kTable);
  std::vector<RegionRoute> routes = route.region_routes;
  edit(routes);
  MetaUpdateResult result = UpdateTableRoute(kv, kTable, raw, route, std::move(routes));
  REPARTSIM_ASSERT_MSG(result.ok, "fixture route edit failed");
}

// The committed expression of a region on its datanode as SQL ("" none, "<absent>" no region).
inline std::string DnExpr(const RepartitionHarness& h, uint32_t number) {
  const model::Region* region = h.DatanodeRegion(RegionN(number));
  if (region == nullptr) return "<absent>";
  const auto& expr = region->version().partition_expr;
  return expr.has_value() ? expr->ToSql() : "";
}

// The staging expression of a region as SQL: "<none>" when not staging, "<reject>" for
// RejectAllWrites.
inline std::string DnStaging(const RepartitionHarness& h, uint32_t number) {
  const model::Region* region = h.DatanodeRegion(RegionN(number));
  if (region == nullptr || !region->staging().has_value()) return "<none>";
  const StagingInfo& info = *region->staging();
  if (info.directive == StagingDirective::kRejectAllWrites) return "<reject>";
  return info.partition_expr.has_value() ? info.partition_expr->ToSql() : "";
}

}  // namespace repartsim::model::testing
