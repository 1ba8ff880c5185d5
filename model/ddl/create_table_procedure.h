// CREATE TABLE as a persisted procedure (the real CreateTableProcedure, simplified to the
// states that matter here): Prepare -> DatanodeCreateRegions -> CreateMetadata -> done.
// DatanodeCreateRegions sends CreateRegion to every region's leader and waits for all replies
// (missing replies after the request timeout: retry later; creating a region is idempotent on
// the datanode); CreateMetadata writes table info and route in one CAS transaction and
// invalidates caches. No rollback: a failed create leaves orphan regions that get no lease.
#pragma once

#include <array>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "model/ddl/metasrv_env.h"
#include "model/meta/region_route.h"
#include "model/meta/table_info.h"
#include "model/procedure/procedure.h"
#include "model/procedure/procedure_manager.h"
#include "sim/result.h"

namespace repartsim::model {

class CreateTableProcedure {
 public:
  enum class State : uint8_t { kPrepare, kDatanodeCreateRegions, kCreateMetadata };
  static constexpr std::string_view kType = "CreateTable";
  // GreptimeDB's state names, by State: the one list that crash sites, `after:` steps and
  // the crash-matrix generator are built from (static_assert below the class).
  static constexpr std::array<std::string_view, 3> kStateNames = {
      "Prepare", "DatanodeCreateRegions", "CreateMetadata"};

  CreateTableProcedure() = default;
  CreateTableProcedure(TableInfo info, TableRoute route);

  std::string state_name() const;
  std::string Dump() const;
  static sim::Result<CreateTableProcedure> Load(std::string_view dump);
  Step Execute(MetasrvEnv& env, const ProcedureView& view);
  std::vector<LockKey> lock_keys() const;
  void Fingerprint(sim::Hasher& h) const;

  State state() const { return state_; }
  const TableInfo& info() const { return info_; }
  const TableRoute& route() const { return route_; }

 private:
  Step CreateRegions(MetasrvEnv& env);

  // Persistent context.
  State state_ = State::kPrepare;
  TableInfo info_;
  TableRoute route_;
  // Volatile context: outstanding CreateRegion requests (corr -> region) and their deadline.
  std::map<uint64_t, RegionId> outstanding_;
  sim::SimTime deadline_;
  bool sent_ = false;
};

static_assert(CreateTableProcedure::kStateNames.size() ==
              static_cast<size_t>(CreateTableProcedure::State::kCreateMetadata) + 1);

}  // namespace repartsim::model
