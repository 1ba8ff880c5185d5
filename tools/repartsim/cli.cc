#include <CLI/CLI.hpp>
#include <cstdio>
#include <string>
#include <vector>

#include "model/campaign/repro_command.h"
#include "tools/repartsim/cli_error.h"
#include "tools/repartsim/cli_numbers.h"
#include "tools/repartsim/exit_code.h"
#include "tools/repartsim/verbs.h"

namespace repartsim::tools {

void AddUnbuiltVerb(CLI::App& app, const char* name, const char* description, int* exit_code) {
  CLI::App* sub = app.add_subcommand(name, std::string(description) + " (not built yet)");
  std::string verb = name;
  sub->callback([verb, exit_code] {
    std::fprintf(stderr, "repartsim: error: the '%s' verb is not built yet\n", verb.c_str());
    *exit_code = kExitUsage;
  });
}

int RunCli(int argc, char** argv) {
  CLI::App app{
      "repartsim: a deterministic simulator and model checker for table repartition\n"
      "(region split/merge) in a GreptimeDB-style distributed database.\n" +
          campaign::ExitCodeSummary(),
      "repartsim"};
  app.set_version_flag("--version", std::string("repartsim ") + REPARTSIM_VERSION);
  // A missing verb is checked after parsing, so an unknown flag is reported as such first.
  app.require_subcommand(0, 1);
  app.fallthrough(false);
  int exit_code = kExitPass;
  AddRunVerb(app, &exit_code);
  AddReplayVerb(app, &exit_code);
  AddSweepVerb(app, &exit_code);
  AddMergeVerb(app, &exit_code);
  AddExploreVerb(app, &exit_code);
  AddShrinkVerb(app, &exit_code);
  AddCheckRuleVerb(app, &exit_code);
  AddPlanVerb(app, &exit_code);
  AddRouteVerb(app, &exit_code);
  AddPruneVerb(app, &exit_code);
  AddRulesVerb(app, &exit_code);
  AddDemoVerb(app, &exit_code);
  AddReportVerb(app, &exit_code);
  AddMutantsVerb(app, &exit_code);
  RequireNonEmptyValues(app);

  // Printed repro commands start the way this binary was started (a path, or a name on PATH).
  if (argc > 0 && argv[0] != nullptr) campaign::SetCommandName(argv[0]);
  std::vector<std::string> args(argv + (argc > 0 ? 1 : 0), argv + argc);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::fputs(app.help().c_str(), stdout);
    return kExitPass;
  } catch (const CLI::CallForAllHelp&) {
    std::fputs(app.help("", CLI::AppFormatMode::All).c_str(), stdout);
    return kExitPass;
  } catch (const CLI::CallForVersion& e) {
    std::printf("%s\n", e.what());
    return kExitPass;
  } catch (const CLI::ParseError& e) {
    std::string message = e.what();
    if (!app.get_subcommands().empty()) {
      message += " (see 'repartsim " + app.get_subcommands().front()->get_name() + " --help')";
    } else {
      message += " (see 'repartsim --help')";
    }
    return ReportFlagError(args, message);
  }
  if (app.get_subcommands().empty()) {
    return ReportFlagError(args, "a verb is required (see 'repartsim --help')");
  }
  return exit_code;
}

}  // namespace repartsim::tools
