#include "checker/campaign/exit_code.h"

#include "sim/assert.h"

namespace repartsim::campaign {

const std::vector<ExitCodeDoc>& ExitCodeDocs() {
  static const std::vector<ExitCodeDoc> kDocs = {
      {std::to_string(kExitPass), "pass",
       "pass; rule or statement accepted; every sweep row met its expectation"},
      {std::to_string(kExitSafety), "safety violation or rejected rule",
       "safety violation; rule or statement rejected; a scripted DDL rejected (DDL-REJECTED); "
       "a sweep row with an unexpected invariant or an expected one not reproduced"},
      {std::to_string(kExitLiveness), "liveness violation",
       "liveness or availability violation, INV-LIVE or INV-AVAIL (a sweep: only unexpected ones "
       "of "
       "these)"},
      {std::to_string(kExitNondeterminism), "nondeterminism",
       "nondeterminism detected (same seed, different trace)"},
      {std::to_string(kExitCapped), "capped",
       "capped: the run reached `steps_max` before its liveness phase ended, with no violation "
       "found so far (outcome `capped`: liveness not judged; raise `limits.steps_max`). Sweeps "
       "and `mutants` count capped runs apart and do not fail on them"},
      {std::to_string(kExitUsage), "bad usage or input",
       "bad usage or input (flags, YAML, SQL, a malformed or inconsistent sweep report, an "
       "unwritable output path found before any run): `file:line:col: error: message`"},
      {std::to_string(kExitInternal), "internal error",
       "internal error (an always-on assertion; prints seed and step); a sweep or merged "
       "report holds `unrun` runs (a worker died, or the sweep was interrupted)"},
      {std::to_string(kExitCantCreate), "report not written",
       "a report could not be written after the run (disk full, I/O error; the message has "
       "the reason). A failing run or sweep keeps its own code instead, so a write error "
       "never hides a verdict"},
      {"130, 143", "sweep interrupted (SIGINT, SIGTERM)",
       "a sweep interrupted by SIGINT or SIGTERM with no failure among its finished runs (its "
       "report says 70: the rest are `unrun`)"},
  };
  return kDocs;
}

std::string ExitCodeMarkdownTable() {
  std::string out = "| Code | Meaning |\n| --- | --- |\n";
  for (const ExitCodeDoc& d : ExitCodeDocs()) out += "| " + d.codes + " | " + d.meaning + " |\n";
  return out;
}

std::string ExitCodeSummary() {
  std::vector<std::string> words;
  for (const ExitCodeDoc& d : ExitCodeDocs()) {
    if (!d.summary.empty()) words.push_back(d.codes + " " + d.summary);
  }
  REPARTSIM_ASSERT(!words.empty());
  std::string out = "Exit codes:";
  size_t line = out.size();
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string item = words[i] + (i + 1 == words.size() ? "." : ",");
    if (line + 1 + item.size() > 80) {
      out += "\n" + item;
      line = item.size();
    } else {
      out += " " + item;
      line += 1 + item.size();
    }
  }
  return out;
}

ExitCode ExitCodeFor(run::Outcome outcome) {
  switch (outcome) {
    case run::Outcome::kPass:
      return kExitPass;
    case run::Outcome::kSafety:
      return kExitSafety;
    case run::Outcome::kLiveness:
      return kExitLiveness;
    case run::Outcome::kNondeterminism:
      return kExitNondeterminism;
    case run::Outcome::kCapped:
      return kExitCapped;
  }
  REPARTSIM_UNREACHABLE();
}

}  // namespace repartsim::campaign
