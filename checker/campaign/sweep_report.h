// Sweep results: one compact record per run, aggregated per scenario row and per failure group,
// keeping the fastest failing seed (fewest steps, then lowest seed) of each group, as
// TigerBeetle's CFO does.
//
// A scenario row is keyed by (path, profile, rule overrides): the same file swept under both
// profiles, or with --rule overrides, gives separate rows, and merge keeps them apart. Each row
// carries the scenario file's hash, each report the binary's version and build id, so merge
// can refuse reports of different binaries or of an edited scenario.
//
// Verdicts. A run's invariant is expected (the scenario's `violation:`), tolerated (its
// `tolerate:` list, or READ-ANOMALY, which never fails a run) or UNEXPECTED. A row is met when
// no run reported an unexpected invariant, every run ran (none `unrun`: a worker died),
// no run was nondeterministic and, for `violation: X`, some run reproduced X. A sweep that is
// one shard of several cannot judge "X not reproduced" (another shard may hold the seed): it
// says so and leaves that verdict to merge, which judges it once every shard is present.
//
// A failure signature is the violation message normalised (FailureSignature): quoted SQL,
// digit runs and singular/plural wording folded, so one defect on different rows, steps,
// regions or queries lands in one group.
//
// Reports are JSON (schema version kSweepReportVersion, mergeable; README "Sweep reports");
// the CLI renders them as text and JUnit XML (tools/repartsim/report_sweep.h).
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "checker/campaign/repro_command.h"
#include "checker/campaign/verdict.h"
#include "checker/run/runner.h"
#include "sim/result.h"

namespace repartsim::campaign {

inline constexpr int kSweepReportVersion = 2;

struct SweepFailure {
  std::string invariant;
  std::string signature;
  std::string message;
};

// The invariant name of a run that ended in an internal error (exit 70, a REPARTSIM_ASSERT)
// in a sweep worker: its outcome is "internal-error" and its one failure carries this name, so
// it is tallied and grouped like a violation (with its seed and repro) and the sweep exits 70.
inline constexpr const char* kInternalErrorName = "INTERNAL-ERROR";

struct SweepRun {
  std::string path;     // scenario file
  std::string profile;  // effective profile
  std::string rules;    // --rule overrides "a=off,b=on" ("" none)
  uint64_t seed = 0;
  std::string outcome;  // pass, safety, liveness, nondeterminism, capped, skipped, unrun,
                        // internal-error
  uint64_t steps = 0;
  std::string trace_hash;
  std::vector<std::string> invariants;
  std::vector<SweepFailure> failures;  // one per distinct (invariant, signature)
  int64_t wall_ms = 0;
  std::string shape;  // a `shape: swarm` run's drawn shape (scenario::ShapeText), else ""
  std::string Key() const;
};

struct SweepScenario {
  std::string path;
  std::string name;
  std::string profile;
  std::string rules;                  // as SweepRun::rules
  std::string hash;                   // "0x..." of the scenario file's bytes
  std::string expect;                 // "pass" or "violation: INV-X"
  std::vector<std::string> tolerate;  // sorted invariant names
  std::string Key() const;
  // The invariant of "violation: X", "" for pass.
  std::string ExpectedInvariant() const;
  bool Allows(const std::string& invariant) const;
};

struct SweepGroup {
  std::string key;  // the scenario row's Key()
  std::string path;
  std::string name;
  std::string profile;
  std::string rules;
  std::string invariant;
  std::string signature;
  std::string message;
  uint64_t count = 0;
  uint64_t fastest_seed = 0;
  uint64_t fastest_steps = 0;
  std::string fastest_shape;  // the fastest run's SweepRun::shape
  std::string status;         // "expected", "tolerated", "UNEXPECTED"
};

// The counts the verdict is judged from (runs, skipped, unrun, nondeterminism, reproduced,
// unexpected_invariants: campaign::RowCounts) and the rest a report shows.
struct ScenarioTally : campaign::RowCounts {
  uint64_t pass = 0, safety = 0;
  uint64_t liveness = 0;    // runs reporting INV-LIVE (with or without a safety violation)
  uint64_t anomalies = 0;   // runs reporting READ-ANOMALY
  uint64_t unexpected = 0;  // runs reporting an invariant the expectation does not allow
  bool met = true;
  std::string verdict;  // "ok", "UNEXPECTED INV-X", "NOT REPRODUCED INV-X", ...
};

// Whether scenario row `s` (nullptr: unknown) allows `invariant` in a run: READ-ANOMALY always
// (reported, never failing), else what the row's expectation allows, nothing when `raw`.
bool InvariantAllowed(const std::string& invariant, const SweepScenario* s, bool raw);
// A run that fails its row: nondeterminism, or an invariant the row does not allow.
bool RunUnexpected(const SweepRun& run, const SweepScenario* s, bool raw);

struct SweepReport {
  std::string binary_version;  // REPARTSIM_VERSION
  std::string binary_id;       // hash of the executable's bytes ("0x...")
  std::string seeds;           // "A..B" or "per-scenario"
  std::string shard = "0/1";   // "I/N"; a merged report lists its shards "0/2+1/2"
  std::string sweep_id;        // one id shared by the shards of one sweep (SweepId())
  std::string rules;           // the sweep's --rule overrides "a=off,b=on"
  bool raw = false;            // ignore expectations: any violation fails
  bool complete = true;        // every shard present (one unsharded sweep, or a full merge)
                               // and not interrupted
  bool interrupted = false;    // SIGINT/SIGTERM: unfinished runs are `unrun`
  int64_t wall_ms = 0;
  std::vector<std::string> notes;  // e.g. "worker 2 died (killed by signal 9)"
  std::vector<SweepScenario> scenarios;
  std::vector<SweepRun> runs;
  std::vector<std::string> determinism_mismatches;
  uint64_t determinism_checked = 0;

  // Derived (Aggregate()).
  std::map<std::string, ScenarioTally> tallies;  // by SweepScenario::Key()
  std::vector<SweepGroup> groups;

  void Aggregate();
  // 70 a run never ran (interrupted, a worker died); 3 nondeterminism; else 1 (an unmet row with a
  // safety problem or an expected violation not reproduced) or 2 (only liveness problems); 0 all
  // met.
  int ExitCode() const;
  // Identifies the sweep a shard belongs to: binary, seeds, raw, rules, shard count and every
  // scenario row (key and file hash), hashed.
  std::string SweepId() const;
  const SweepScenario* FindScenario(const std::string& key) const;
  nlohmann::json ToJson() const;
  // Checks every field merge reads (schema version, outcome vocabulary, seeds, expect
  // strings, every run's scenario row listed); errors are located in `text` (file:line:col).
  static sim::Result<SweepReport> FromJson(const std::string& text, const std::string& file);
};

// Bytes of one sweep report `merge` or `sweep --resume` reads (about 300 bytes a run: over
// three million runs).
inline constexpr size_t kSweepReportBytesMax = size_t{1} << 30;
// JSON values (keys included) and nesting of a sweep report, checked before it is parsed
// (sim::CheckJsonBounds): the parsed tree, not the text, is what a merge holds, about 90 bytes a
// value. A full shard's report (kSweepRunsMax runs of at most kSweepRunRecordValues, see
// sweep_plan.h) fits; a report of a gigabyte of tiny values (8 GB or more as a tree) does not.
inline constexpr uint64_t kSweepReportValuesMax = 48'000'000;
inline constexpr uint32_t kReportDepthMax = 32;
// Reads (sim::ReadInputFile, at most kSweepReportBytesMax) and checks the report at `path`.
sim::Result<SweepReport> ReadSweepReport(const std::string& path);

// "0x..." hash of a file's bytes: a scenario row's `hash`, the binary's build id; "" when the
// file cannot be read.
std::string FileHash(const std::string& path);

// The message normalised for grouping: text in backquotes or single quotes -> `_`, digit runs
// -> '#', plural words -> singular ("3 rows are missing" and "1 row is missing" agree).
std::string FailureSignature(const std::string& message);
// One run's compact record.
SweepRun ToSweepRun(const run::RunReport& report, const std::string& rules, int64_t wall_ms);
nlohmann::json RunToJson(const SweepRun& run);
SweepRun RunFromJson(const nlohmann::json& j);
// The located error for a key repeated within one object of `text` (at `path`, the key last:
// FindDuplicateJsonKey), at the key's first place.
sim::Error DuplicateKeyError(const std::string& text, const std::vector<std::string>& path,
                             const std::string& file);
// The located error for a JSON text the parser refused with an exception other than a
// parse_error (out_of_range 406 "number overflow parsing '1e999'"; `what` is its what()): at
// the quoted token in `text`, else at its start.
sim::Error UnreadableJsonNumber(const std::string& text, const std::string& what,
                                const std::string& file);

// The file:line:col of the value at `path` (object keys, array indices) in the report `text`.
sim::SourceLocation LocateReportField(const std::string& text, const std::vector<std::string>& path,
                                      const std::string& file);

}  // namespace repartsim::campaign
