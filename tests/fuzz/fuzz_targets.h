// The fuzz targets' entry points, shared by the libFuzzer executables (fuzz_main.cc, built
// with -DREPARTSIM_FUZZ=ON and clang++) and by fuzz_corpus_test.cc, which replays every
// committed corpus and regression input through them in the default test suite with any
// compiler. Each returns 0; a crash, a sanitizer report or a failed REPARTSIM_ASSERT (abort)
// is a finding. Bad input must come back as a located error, never as a crash.
#pragma once

#include <cstddef>
#include <cstdint>

namespace repartsim::fuzz {

// SQL text through every statement parser (ParseStatements, ParsePredicate,
// ParseAssignments, ParseDurationMs), and what parses through the predicate walkers
// (ToSql, EvaluatePredicate, PruneRegions in both modes against the parsed CREATE TABLE).
int FuzzSql(const uint8_t* data, size_t size);
// A console script (repartsim sql) split into statements (console::SplitScript, which the
// terminal mode uses too), the first kConsoleStatementsFuzz run by a console Session on the
// default cluster (each given kConsoleStepsFuzz steps), and every answer rendered as text and
// JSON.
int FuzzConsole(const uint8_t* data, size_t size);
// A YAML scenario through the loader (ParseScenario).
int FuzzScenario(const uint8_t* data, size_t size);
// A choice file through ReadChoicesFile (header and choice list), and its text round trip.
int FuzzChoices(const uint8_t* data, size_t size);
// A sweep report through `repartsim merge` (the reader, the aggregation and the summary).
int FuzzMerge(const uint8_t* data, size_t size);
// A file name (the input's bytes less '/' and NUL) through every writer of names (choice file
// header, JSON, terminal text, repro command; each reads back or shows no control byte) and
// the output/input collision check; the input as a run report's number (ReadRunIdentity).
int FuzzPaths(const uint8_t* data, size_t size);
// A scenario that loads is run for at most kRunStepsFuzz steps under both profiles.
int FuzzRun(const uint8_t* data, size_t size);
// Structure-aware mutation for FuzzRun: parses the YAML, rewrites one scalar (a number
// nudged or replaced by a boundary value, a word from the scenario vocabulary, or bytes
// mutated by libFuzzer) and emits the document again; falls back to byte mutation when
// the input is not YAML.
size_t MutateScenario(uint8_t* data, size_t size, size_t size_max, unsigned int seed,
                      size_t (*byte_mutator)(uint8_t*, size_t, size_t));

inline constexpr uint64_t kRunStepsFuzz = 3000;
inline constexpr size_t kConsoleStatementsFuzz = 12;
inline constexpr uint64_t kConsoleStepsFuzz = 20000;

}  // namespace repartsim::fuzz
