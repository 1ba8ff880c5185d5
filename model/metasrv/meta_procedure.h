// MetaProcedure: the Body of the metasrv's ProcedureManager: one of the procedure types the
// metasrv runs, as a value (std::variant), dispatching the Body concept to the held type.
// Adding a procedure type = adding it to the variant, to Load() and to kMetaProcedureStates.
#pragma once

#include <array>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "model/ddl/create_table_procedure.h"
#include "model/ddl/metasrv_env.h"
#include "model/migration/region_migration_procedure.h"
#include "model/procedure/procedure.h"
#include "model/procedure/procedure_manager.h"
#include "model/repartition/group/group_procedure.h"
#include "model/repartition/repartition_procedure.h"
#include "sim/result.h"

namespace repartsim::model {

class MetaProcedure {
 public:
  using Variant = std::variant<CreateTableProcedure, RepartitionProcedure,
                               RepartitionGroupProcedure, RegionMigrationProcedure>;

  MetaProcedure() = default;
  template <class T>
  MetaProcedure(T body) : body_(std::move(body)) {}  // NOLINT: implicit by design

  std::string_view type() const;
  std::string state_name() const;
  std::string Dump() const;
  static sim::Result<MetaProcedure> Load(std::string_view type, std::string_view dump);
  static sim::Result<MetaProcedure> LoadJson(std::string_view type,
                                             std::string_view dump);  // Load() without the memo
  Step Execute(MetasrvEnv& env, const ProcedureView& view);
  Step Rollback(MetasrvEnv& env, const ProcedureView& view);
  bool rollback_supported() const;
  std::vector<LockKey> lock_keys() const;
  void Fingerprint(sim::Hasher& h) const;

  const Variant& body() const { return body_; }
  template <class T>
  const T* As() const {
    return std::get_if<T>(&body_);
  }

 private:
  Variant body_;
};

using MetaProcedureManager = ProcedureManager<MetaProcedure, MetasrvEnv>;

// A procedure type and its state names, in State order.
struct ProcedureStateTable {
  std::string_view type;
  std::span<const std::string_view> states;
};

// Every procedure type the metasrv runs, in variant order: what the crash-site list
// (`<Type>.<State>.before_persist|after_persist`) and the `after:` states are built from.
inline constexpr std::array<ProcedureStateTable, 4> kMetaProcedureStates = {{
    {CreateTableProcedure::kType, CreateTableProcedure::kStateNames},
    {RepartitionProcedure::kType, RepartitionProcedure::kStateNames},
    {RepartitionGroupProcedure::kType, RepartitionGroupProcedure::kStateNames},
    {RegionMigrationProcedure::kType, RegionMigrationProcedure::kStateNames},
}};
static_assert(kMetaProcedureStates.size() == std::variant_size_v<MetaProcedure::Variant>);

}  // namespace repartsim::model
