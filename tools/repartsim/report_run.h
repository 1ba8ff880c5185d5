// Shared pieces of the scenario verbs (run, replay, sweep): --rule flag parsing, atomic report
// files, and the files of the campaign layer's formats: choice files
// (checker/campaign/choice_file.h), trace files (text or JSON lines, trace_format.h) and the
// run report a person reads (run_text.h).
#pragma once

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "checker/campaign/choice_file.h"
#include "checker/campaign/mutation_search.h"
#include "checker/campaign/output_files.h"
#include "checker/run/runner.h"
#include "checker/scenario/scenario.h"
#include "sim/choice_list.h"
#include "sim/fingerprint.h"
#include "sim/result.h"

namespace repartsim::tools {

// "name=on|off" (also true/false, 1/0) -> (name, on). Unknown names are left to the runner.
// Error, located on the command line: "--rule expects name=on|off, got 'x'".
sim::Result<std::vector<std::pair<std::string, bool>>> ParseRuleFlags(
    const std::vector<std::string>& flags, const std::vector<std::string>& args);

// Checks a profile name and the rule names before a run (command-line located errors).
sim::Status ValidateOverrides(const std::optional<std::string>& profile,
                              const std::vector<std::pair<std::string, bool>>& rules,
                              const std::vector<std::string>& args);

using campaign::ChoicesPath;
// `repartsim run PATH --seed N --profile P --rule a=off ...`: the command reproducing a run.
using campaign::RunReproCommand;

using campaign::ChoicesFile;
using campaign::ReadChoicesFile;

sim::Status WriteChoicesFile(const std::string& path, const run::RunReport& report);

// Writes `lines` to `path` ("-" = stdout) as text or JSON lines. Error: "cannot write FILE".
sim::Status WriteTraceFile(const std::string& path, const std::string& format,
                           const std::vector<std::string>& lines);
// Prints the run: header, summary line, expectation, history counts, violations (at most
// `violations_max`, the JSON report has all).
void PrintRunReport(std::FILE* out, const scenario::Scenario& scenario,
                    const run::RunReport& report, size_t violations_max);

using campaign::OutputFile;
using campaign::WriteTextFile;  // callers exit kExitCantCreate on its error
// campaign::CheckOutputFiles (every output a verb was asked for, before any work, none of them
// one of the verb's `inputs`), located at the offending path or flag on the command line
// (callers exit 64).
sim::Status CheckOutputPaths(const std::vector<OutputFile>& outputs,
                             const std::vector<std::string>& args,
                             const std::vector<std::string>& inputs);
// The same for one output, named by `flag`.
sim::Status CheckOutputPath(const std::string& flag, const std::string& path,
                            const std::vector<std::string>& args,
                            const std::vector<std::string>& inputs);

// Prints a failed report write and returns the exit code: kExitCantCreate, unless `verdict`
// (the run's own exit code) is a failure, which a write error must not hide.
int ReportWriteError(const sim::Error& error, int verdict);
// The same for every output that could not be written (each printed, in order); `verdict`
// when there are none.
int ReportWriteErrors(const std::vector<sim::Error>& errors, int verdict);

// Parses a seed (a decimal integer in [0, 2^64-1]); error located at `text` on the command
// line: "--seed expects a non-negative integer below 2^64, got '-1'".
sim::Result<uint64_t> ParseSeedFlag(const std::string& flag, const std::string& text,
                                    const std::vector<std::string>& args);

// argv[1..] of this process (from /proc/self/cmdline), to locate flag errors by column.
std::vector<std::string> CommandLineArgs();

// "0x%016llx".
using sim::Hex64;

}  // namespace repartsim::tools
