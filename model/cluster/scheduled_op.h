// ScheduledOp: what the cluster's op queue holds, either a client statement (model/node) or a
// fault action of the scenario (fault_action.h).
#pragma once

#include <type_traits>
#include <variant>

#include "model/cluster/fault_action.h"
#include "model/node/client_statement.h"
#include "sim/assert.h"
#include "sim/fingerprint.h"

namespace repartsim::model {

using ScheduledOp = std::variant<ClientStatement, FaultAction>;

// The statement's or action's name ("insert", "crash", ...).
const char* ScheduledOpName(const ScheduledOp& op);
// Kind (statements 0..3, then actions 4..) and fields.
void HashScheduledOp(sim::Hasher& h, const ScheduledOp& op);

// The op as a `T` (a statement type such as InsertOp, or an action type such as CrashNodeOp),
// or nullptr when it holds another kind.
template <class T, class Variant>
inline constexpr bool kIsAlternative = false;
template <class T, class... Ts>
inline constexpr bool kIsAlternative<T, std::variant<Ts...>> = (std::is_same_v<T, Ts> || ...);

template <class T>
const T* OpIf(const ScheduledOp* op) {
  if constexpr (kIsAlternative<T, ClientStatement>) {
    const auto* statement = std::get_if<ClientStatement>(op);
    return statement == nullptr ? nullptr : std::get_if<T>(statement);
  } else {
    static_assert(kIsAlternative<T, FaultAction>);
    const auto* action = std::get_if<FaultAction>(op);
    return action == nullptr ? nullptr : std::get_if<T>(action);
  }
}
// REQUIRES: `op` holds a `T`.
template <class T>
const T& OpAs(const ScheduledOp& op) {
  const T* as = OpIf<T>(&op);
  REPARTSIM_ASSERT(as != nullptr);
  return *as;
}

}  // namespace repartsim::model
