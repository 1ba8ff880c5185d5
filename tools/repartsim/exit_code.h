// The CLI's exit codes are campaign::ExitCode (checker/campaign/exit_code.h, the one table,
// rendered into --help and README.md "Exit codes"); the verbs use these names for them.
#pragma once

#include "checker/campaign/exit_code.h"

namespace repartsim::tools {

using campaign::ExitCode;
using campaign::ExitCodeFor;
using campaign::kExitCantCreate;
using campaign::kExitCapped;
using campaign::kExitInternal;
using campaign::kExitLiveness;
using campaign::kExitNondeterminism;
using campaign::kExitPass;
using campaign::kExitSafety;
using campaign::kExitUsage;

}  // namespace repartsim::tools
