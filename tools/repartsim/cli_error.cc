#include "tools/repartsim/cli_error.h"

#include <cstdio>

#include "tools/repartsim/exit_code.h"

namespace repartsim::tools {

int ReportInputError(const sim::Error& error) {
  std::fprintf(stderr, "%s\n", error.Format().c_str());
  return kExitUsage;
}

uint32_t ArgumentColumn(const std::vector<std::string>& args, std::string_view token) {
  uint32_t column = 1;
  for (const std::string& arg : args) {
    if (arg == token) return column;
    column += static_cast<uint32_t>(arg.size()) + 1;
  }
  // A flag's value given as --flag=VALUE: the column of its value.
  column = 1;
  for (const std::string& arg : args) {
    const size_t eq = arg.find('=');
    if (!token.empty() && arg.rfind("--", 0) == 0 && eq != std::string::npos &&
        std::string_view(arg).substr(eq + 1) == token) {
      return column + static_cast<uint32_t>(eq) + 1;
    }
    column += static_cast<uint32_t>(arg.size()) + 1;
  }
  return 1;
}

sim::Error FlagMessageError(const std::vector<std::string>& args, std::string_view message) {
  // Prefer flags (the usual culprits), then any argument the message quotes.
  std::string_view culprit;
  for (int pass = 0; pass < 2 && culprit.empty(); ++pass) {
    for (const std::string& arg : args) {
      if (arg.empty() || (pass == 0 && arg[0] != '-')) continue;
      if (message.find(arg) != std::string_view::npos) {
        culprit = arg;
        break;
      }
    }
  }
  return sim::Error{sim::SourceLocation{"<command line>", 1, ArgumentColumn(args, culprit)},
                    std::string(message)};
}

int ReportFlagError(const std::vector<std::string>& args, std::string_view message) {
  return ReportInputError(FlagMessageError(args, message));
}

}  // namespace repartsim::tools
