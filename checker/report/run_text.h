// The report of one run a person reads (run, replay, explore): the header, the summary line,
// how the run ended, the history and probe counts, the expectation and whether the run met it,
// nondeterminism, and the first `violations_max` violations (decisive first, each trace line
// shown once; the rest counted by invariant; the JSON report has all), then the invariant
// totals.
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "checker/run/runner.h"
#include "checker/scenario/scenario.h"
#include "sim/result.h"

namespace repartsim::report {

// What names a run in its JSON report: enough to run it again and check the trace hash.
struct RunIdentity {
  std::string path;
  std::string profile;
  std::vector<std::pair<std::string, bool>> rules;
  uint64_t seed = 0;
  std::string trace_hash;
};

// Bytes of one run report `report` reads (`run --json` keeps no trace: a few KB to a few MB).
inline constexpr size_t kRunReportBytesMax = size_t{64} << 20;
// JSON values (keys included) of a run report, checked before it is parsed: about 65 a KB (a
// bundled scenario's report is 8 KB and 529 values), so a report of the byte limit at that
// density fits, and one of tiny values (`[0,0,...]`, a tree many times its text) does not.
inline constexpr uint64_t kRunReportValuesMax = 4'500'000;

// Reads the identity from a run report's JSON `text` (`repartsim run --json`); errors located
// in `file` (file:line:col of the offending field).
sim::Result<RunIdentity> ReadRunIdentity(const std::string& text, const std::string& file);

// The version of the run JSON's schema (its `version`, as the sweep report has one): raised when
// a field changes meaning or goes away.
inline constexpr int kRunReportVersion = 1;

// Stamps a run JSON (`run --json`, `replay --json`) as the sweep report is stamped: `version`
// (kRunReportVersion) and `binary` {version, id} (REPARTSIM_VERSION and the executable's hash).
void StampRunJson(nlohmann::json& j, const std::string& binary_version,
                  const std::string& binary_id);

// The JSON run report: RunReport::ToJson, the expectation and whether the run met it, the
// choice file written ("" none) and the repro command.
nlohmann::json RunReportJson(const scenario::Scenario& scenario, const run::RunReport& report,
                             const std::string& choices, const std::string& repro);

// The run's stories (run_story.h), one paragraph each: "story I of N (INV-X xK, ...): cause"
// and its detail lines; "" when the run kept no trace or reported nothing.
std::string StoriesText(const run::RunReport& report);

// The run report a person reads: the scenario, the summary, the expectation, the stories, then
// the first `violations_max` violations.
std::string RunReportText(const scenario::Scenario& scenario, const run::RunReport& report,
                          size_t violations_max);

}  // namespace repartsim::report
