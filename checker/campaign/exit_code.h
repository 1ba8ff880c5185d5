// The exit codes of every repartsim verb, defined once. The CLI returns these values; its
// --help summary and the table of README.md "Exit codes" are rendered from ExitCodeDocs()
// (tests/checker/campaign/exit_code_test.cc compares the README with it), so a code cannot be
// documented differently in two places. A verb's own --help says what each code means for it.
#pragma once

#include <string>
#include <vector>

#include "checker/run/runner.h"

namespace repartsim::campaign {

enum ExitCode : int {
  kExitPass = 0,            // run passed; rule/statement accepted
  kExitSafety = 1,          // safety violation; rule/statement rejected
  kExitLiveness = 2,        // liveness violation
  kExitNondeterminism = 3,  // the same seed gave a different trace
  kExitCapped = 4,          // steps_max ended the run before its liveness phase did
  kExitUsage = 64,          // bad flags, YAML, SQL or other input; an unwritable output path
  kExitInternal = 70,       // internal invariant broken (REPARTSIM_ASSERT); a sweep worker died
  kExitCantCreate = 73,     // the OS failed to write a report (disk full, I/O error)
};

struct ExitCodeDoc {
  std::string codes;    // "0", or "130, 143" for codes the verb does not return itself
  std::string summary;  // a few words, for --help
  std::string meaning;  // the README's sentence
};

// The exit code of one run's outcome (run, replay, explore).
ExitCode ExitCodeFor(run::Outcome outcome);

// Every code in ascending order, then the signal exits of an interrupted sweep.
const std::vector<ExitCodeDoc>& ExitCodeDocs();

// "| Code | Meaning |\n| --- | --- |\n| 0 | ... |\n...": the README table.
std::string ExitCodeMarkdownTable();

// "Exit codes: 0 pass, 1 ..., 73 report not written.": the --help summary, wrapped at 80.
std::string ExitCodeSummary();

}  // namespace repartsim::campaign
