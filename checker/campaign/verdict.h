// The verdict of one scenario row of a campaign (a sweep, a merge of shards): one rule from the
// counts of the row's runs and its expectation, so every report (text, JSON, JUnit, HTML)
// and every verb that judges rows says the same thing.
//
// In order: a row with an unrun run (a worker died) or a nondeterministic run fails; a row
// with no run that ran is met (skipped, or not in this shard); a row with a run reporting an
// invariant its expectation does not allow fails; a row expecting a violation is met once a
// run reproduced it, and otherwise fails, unless the report is one shard of several (merge
// judges); a row expecting a pass (or judged raw) is met. A met row with capped runs says how
// many ("ok (2 runs capped)").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace repartsim::campaign {

enum class Verdict : uint8_t {
  kUnrun,           // some run never reported (a dead worker)
  kNondeterminism,  // some run diverged from itself
  kSkipped,         // no run ran: all skipped (time budget, interrupt)
  kNoRuns,          // no run ran: none in this shard
  kUnexpected,      // some run reported an invariant the expectation does not allow
  kOk,              // expectation pass (or raw): every run allowed
  kReproduced,      // expectation violation: X, and some run reported X
  kNotInShard,      // expectation violation: X, not seen in this shard of several
  kNotReproduced,   // expectation violation: X, no run reported it
};

// What the runs of one row came to.
struct RowCounts {
  uint64_t runs = 0;  // runs that ran (not skipped, not unrun)
  uint64_t skipped = 0;
  uint64_t unrun = 0;
  uint64_t nondeterminism = 0;
  // Runs that ran but reached steps_max before their liveness phase ended, with nothing
  // unexpected so far (outcome `capped`): counted in `runs`, never failing a row by themselves,
  // named in the verdict ("ok (3 runs capped)").
  uint64_t capped = 0;
  bool reproduced = false;                         // the expected invariant was reported
  std::vector<std::string> unexpected_invariants;  // sorted, without duplicates
};

struct RowVerdict {
  Verdict verdict = Verdict::kOk;
  bool met = true;
  std::string text;  // "ok (reproduced INV-ACK)", "UNEXPECTED INV-LIVE, INV-OWN", ...
};

// `expected` is the invariant of "violation: X" ("" for pass); `raw` ignores it (any
// violation fails, judged through unexpected_invariants); `complete` is false for one shard
// of a sharded campaign.
RowVerdict JudgeRow(const RowCounts& counts, const std::string& expected, bool raw, bool complete);

}  // namespace repartsim::campaign
