// The repartsim verbs. Each Add*Verb adds one CLI11 subcommand to `app`; when the user selects
// it, its callback runs the verb and stores the verb's exit code (exit_code.h) in *exit_code.
// One file per verb: tools/repartsim/verb_<name>.cc.
#pragma once

// CLI11 is declared, not included: main.cc and the tests that call RunCli do not parse it.
namespace CLI {
class App;
}  // namespace CLI

namespace repartsim::tools {

void AddRunVerb(CLI::App& app, int* exit_code);
void AddReplayVerb(CLI::App& app, int* exit_code);
void AddSweepVerb(CLI::App& app, int* exit_code);
void AddMergeVerb(CLI::App& app, int* exit_code);
void AddExploreVerb(CLI::App& app, int* exit_code);
void AddShrinkVerb(CLI::App& app, int* exit_code);
void AddCheckRuleVerb(CLI::App& app, int* exit_code);
void AddPlanVerb(CLI::App& app, int* exit_code);
void AddRouteVerb(CLI::App& app, int* exit_code);
void AddPruneVerb(CLI::App& app, int* exit_code);
void AddRulesVerb(CLI::App& app, int* exit_code);
void AddDemoVerb(CLI::App& app, int* exit_code);
void AddReportVerb(CLI::App& app, int* exit_code);
void AddMutantsVerb(CLI::App& app, int* exit_code);
void AddSqlVerb(CLI::App& app, int* exit_code);

// Adds a verb that is planned but not built yet: it says so and exits with kExitUsage.
void AddUnbuiltVerb(CLI::App& app, const char* name, const char* description, int* exit_code);

// Runs the CLI on argv; returns the process exit code. Never throws.
int RunCli(int argc, char** argv);

}  // namespace repartsim::tools
