#include "model/procedure/procedure.h"

#include "sim/assert.h"

namespace repartsim::model {

const char* ProcedureStatusName(ProcedureStatus status) {
  switch (status) {
    case ProcedureStatus::kRunning:
      return "Running";
    case ProcedureStatus::kRetrying:
      return "Retrying";
    case ProcedureStatus::kWaiting:
      return "Waiting";
    case ProcedureStatus::kSuspended:
      return "Suspended";
    case ProcedureStatus::kRollingBack:
      return "RollingBack";
    case ProcedureStatus::kDone:
      return "Done";
    case ProcedureStatus::kFailed:
      return "Failed";
  }
  REPARTSIM_UNREACHABLE();
}

}  // namespace repartsim::model
