// Printing of user-input errors in the one format every front end uses:
// `file:line:col: error: message` on stderr, then exit code 64 (kExitUsage).
// Errors in command-line flags are located in the pseudo file `<command line>`, line 1, at the
// column where the offending argument starts in the space-joined argument list.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "sim/result.h"

namespace repartsim::tools {

// Prints `error.Format()` to stderr. Returns kExitUsage.
int ReportInputError(const sim::Error& error);

// Prints a command-line error located at the first argument of `args` (argv[1..]) that the
// message mentions (column 1 when none does). Returns kExitUsage.
int ReportFlagError(const std::vector<std::string>& args, std::string_view message);
// The error ReportFlagError prints, for a caller that returns it.
sim::Error FlagMessageError(const std::vector<std::string>& args, std::string_view message);

// Returns the 1-based column of `token` in the space-joined `args` (as a whole argument, else
// as the VALUE of a --flag=VALUE argument), or 1 if absent.
uint32_t ArgumentColumn(const std::vector<std::string>& args, std::string_view token);

}  // namespace repartsim::tools
