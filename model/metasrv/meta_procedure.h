// MetaProcedure: the Body of the metasrv's ProcedureManager: one of the procedure types the
// metasrv runs, as a value (std::variant), dispatching the Body concept to the held type.
// Adding a procedure type = adding it to the variant and to Load().
#pragma once

#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "model/ddl/create_table_procedure.h"
#include "model/ddl/metasrv_env.h"
#include "model/procedure/procedure.h"
#include "model/procedure/procedure_manager.h"
#include "model/repartition/group/group_procedure.h"
#include "model/repartition/repartition_procedure.h"
#include "sim/result.h"

namespace repartsim::model {

class MetaProcedure {
 public:
  using Variant =
      std::variant<CreateTableProcedure, RepartitionProcedure, RepartitionGroupProcedure>;

  MetaProcedure() = default;
  template <class T>
  MetaProcedure(T body) : body_(std::move(body)) {}  // NOLINT: implicit by design

  std::string_view type() const;
  std::string state_name() const;
  std::string Dump() const;
  static sim::Result<MetaProcedure> Load(std::string_view type, std::string_view dump);
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

}  // namespace repartsim::model
