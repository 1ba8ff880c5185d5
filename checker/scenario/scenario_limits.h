// Size limits of a scenario. The loader rejects anything beyond them with a located error
// (exit 64), so that the largest scenario it accepts loads in bounded memory and its run
// ends within a bounded number of steps. docs/limits.md derives the memory of one run from
// these numbers.
#pragma once

#include <cstddef>
#include <cstdint>

namespace repartsim::scenario {

// Bytes of one scenario file (the YAML parser holds about 40 bytes per input byte).
inline constexpr size_t kScenarioBytesMax = 1 << 20;
// Entries of `setup` plus entries of `steps`.
inline constexpr size_t kScenarioStepEntriesMax = 10000;
// Every virtual time or duration of a scenario: limits.time_ms_max, liveness_ms, settle_ms,
// workload start/end, step delays.
inline constexpr int64_t kScenarioTimeMsMax = 3600 * 1000;
// limits.steps_max: the per-run event budget (one step runs one event).
inline constexpr int64_t kRunStepsMax = 2000000;
// Regions of the table: those it starts with plus every target of every ALTER step.
inline constexpr size_t kScenarioRegionsMax = 256;
// Workload operations a run schedules up front (inserts plus queries, worst case).
inline constexpr uint64_t kWorkloadOpsMax = 10000;
// Rows all inserts of a run may carry (workload and scripted), and queries x rows: the
// checker compares each query with the rows written before it, and History keeps each
// query's result, so time and memory grow with the product.
inline constexpr uint64_t kRunRowsMax = 20000;
inline constexpr uint64_t kRunQueryRowsMax = 10000000;

}  // namespace repartsim::scenario
