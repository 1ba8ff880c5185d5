#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <string>
#include <vector>

#include "checker/campaign/repro_command.h"
#include "sim/suggest.h"
#include "tools/repartsim/cli_error.h"
#include "tools/repartsim/cli_numbers.h"
#include "tools/repartsim/exit_code.h"
#include "tools/repartsim/report_sweep.h"
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

namespace {

// " (did you mean ...?)" for the first argument that is neither a verb (when no verb was
// given) nor a flag of `verb` (or of the top level), else "".
std::string Suggestion(const CLI::App& app, const CLI::App* verb,
                       const std::vector<std::string>& args) {
  std::vector<std::string> verbs, flags;
  for (const CLI::App* sub : app.get_subcommands({})) verbs.push_back(sub->get_name());
  for (const CLI::App* scope : {&app, verb}) {
    if (scope == nullptr) continue;
    for (const CLI::Option* option : scope->get_options()) {
      for (const std::string& name : option->get_lnames()) flags.push_back("--" + name);
      for (const std::string& name : option->get_snames()) flags.push_back("-" + name);
    }
  }
  for (const std::string& arg : args) {
    const std::string name = arg.substr(0, arg.find('='));
    if (verb == nullptr && !arg.empty() && arg[0] != '-' &&
        std::find(verbs.begin(), verbs.end(), arg) == verbs.end()) {
      return sim::DidYouMean(arg, verbs);
    }
    const size_t letter = name.rfind("--", 0) == 0 ? 2 : 1;  // a value such as -5 is no flag
    if (name.size() > letter && name[0] == '-' &&
        std::isalpha(static_cast<unsigned char>(name[letter])) &&
        std::find(flags.begin(), flags.end(), name) == flags.end()) {
      return sim::DidYouMean(name, flags);
    }
  }
  return "";
}

bool IsVerb(const CLI::App& app, const std::string& name) {
  const std::vector<const CLI::App*> verbs = app.get_subcommands({});
  return std::any_of(verbs.begin(), verbs.end(),
                     [&](const CLI::App* verb) { return verb->get_name() == name; });
}

}  // namespace

int RunCli(int argc, char** argv) {
  CLI::App app{
      "repartsim: a deterministic simulator and model checker for table repartition\n"
      "(region split/merge) in a GreptimeDB-style distributed database.\n" +
          campaign::ExitCodeSummary(),
      "repartsim"};
  // The build id is the one every report records (a hash of this executable's bytes).
  app.set_version_flag("--version", std::function<std::string()>([] {
                         return "repartsim " + BinaryIdentity().first + " (build " +
                                BinaryIdentity().second + ")";
                       }));
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
  AddSqlVerb(app, &exit_code);
  RequireNonEmptyValues(app);

  app.footer("'repartsim help VERB' prints a verb's help, as 'repartsim VERB --help' does.");

  // Printed repro commands start the way this binary was started (a path, or a name on PATH).
  if (argc > 0 && argv[0] != nullptr) campaign::SetCommandName(argv[0]);
  std::vector<std::string> args(argv + (argc > 0 ? 1 : 0), argv + argc);
  // `help [VERB]` is `[VERB] --help` (git and cargo users type it first).
  if (!args.empty() && args[0] == "help" && args.size() <= 2) {
    if (args.size() == 2 && !IsVerb(app, args[1])) {
      return ReportFlagError(args, "help: unknown verb '" + args[1] + "'" +
                                       Suggestion(app, nullptr, {args[1]}) +
                                       " (see 'repartsim --help')");
    }
    std::vector<std::string> words = {argc > 0 ? argv[0] : "repartsim"};
    if (args.size() == 2) words.push_back(args[1]);
    words.push_back("--help");
    std::vector<char*> help_argv;
    for (std::string& word : words) help_argv.push_back(word.data());
    return RunCli(static_cast<int>(help_argv.size()), help_argv.data());
  }
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
    const CLI::App* verb = app.get_subcommands().empty() ? nullptr : app.get_subcommands().front();
    std::string message = e.what() + Suggestion(app, verb, args);
    if (verb != nullptr) {
      message += " (see '" + campaign::CommandName() + " " + verb->get_name() + " --help')";
    } else {
      message += " (see '" + campaign::CommandName() + " --help')";
    }
    return ReportFlagError(args, message);
  }
  if (app.get_subcommands().empty()) {
    return ReportFlagError(args,
                           "a verb is required (see '" + campaign::CommandName() + " --help')");
  }
  return exit_code;
}

}  // namespace repartsim::tools
