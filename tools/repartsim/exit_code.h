// The one exit-code table of the repartsim CLI (README "Exit codes").
#pragma once

namespace repartsim::tools {

enum ExitCode : int {
  kExitPass = 0,            // run passed; rule/statement accepted
  kExitSafety = 1,          // safety violation; rule/statement rejected
  kExitLiveness = 2,        // liveness violation
  kExitNondeterminism = 3,  // the same seed gave a different trace
  kExitUsage = 64,          // bad flags, YAML, SQL or other input; an unwritable output path
  kExitInternal = 70,       // internal invariant broken (REPARTSIM_ASSERT); a sweep worker died
  kExitCantCreate = 73,     // the OS failed to write a report (disk full, I/O error)
};

}  // namespace repartsim::tools
