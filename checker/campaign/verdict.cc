#include "checker/campaign/verdict.h"

#include <utility>

#include "sim/assert.h"

namespace repartsim::campaign {

namespace {

RowVerdict Make(Verdict verdict, bool met, std::string text) {
  return RowVerdict{verdict, met, std::move(text)};
}

}  // namespace

RowVerdict JudgeRow(const RowCounts& counts, const std::string& expected, bool raw, bool complete) {
  REPARTSIM_ASSERT(counts.nondeterminism + counts.capped <= counts.runs);
  std::string unexpected;
  for (const std::string& inv : counts.unexpected_invariants) {
    unexpected += (unexpected.empty() ? "" : ", ") + inv;
  }
  std::string notes;
  if (counts.capped > 0) notes += std::to_string(counts.capped) + " runs capped";
  if (counts.skipped > 0) {
    notes += (notes.empty() ? "" : ", ") + std::to_string(counts.skipped) + " runs skipped";
  }
  const std::string aside = notes.empty() ? "" : " (" + notes + ")";
  if (counts.unrun > 0) {
    return Make(Verdict::kUnrun, false,
                "UNRUN " + std::to_string(counts.unrun) +
                    " runs (the sweep was interrupted or a worker died)");
  }
  if (counts.nondeterminism > 0) return Make(Verdict::kNondeterminism, false, "NONDETERMINISM");
  if (counts.runs == 0) {
    REPARTSIM_ASSERT(counts.unexpected_invariants.empty() && !counts.reproduced);
    if (counts.skipped > 0) {
      return Make(Verdict::kSkipped, true, "skipped (" + std::to_string(counts.skipped) + " runs)");
    }
    return Make(Verdict::kNoRuns, true, "no runs in this shard");
  }
  if (!unexpected.empty()) return Make(Verdict::kUnexpected, false, "UNEXPECTED " + unexpected);
  if (raw || expected.empty()) return Make(Verdict::kOk, true, "ok" + aside);
  if (counts.reproduced) {
    return Make(Verdict::kReproduced, true, "ok (reproduced " + expected + ")" + aside);
  }
  if (!complete) {
    return Make(Verdict::kNotInShard, true, expected + " not in this shard (merge judges)");
  }
  return Make(Verdict::kNotReproduced, false, "NOT REPRODUCED " + expected + aside);
}

}  // namespace repartsim::campaign
