// The causes a story (checker/run/run_story.h) tells beyond stale routes and lost-at events:
// the mechanism of a docs/findings.md class, derived from the run's trace and the violations'
// own records, and, where nothing derives a cause, what the records show and what they do not.
// A class's story starts "<id> (docs/findings.md): " and says its mechanism in one sentence
// with the events (steps, nodes, regions, procedures) that show it in this run. Each class is
// recognised by evidence of its mechanism, never by the scenario's name:
//   N1  a row's returned value was written into region S, its newer value into region T, and T
//       adopted S's files at ApplyStagingManifest (the adopted rows keep S's sequences);
//   K1  rows lost at a compaction of the region that held them;
//   M1  rows lost when a region is closed that a CreateRegion re-created after its DropRegion;
//   K2  a failure loading a manifest whose delta a checkpoint deleted;
//   C1  a count(*) above the rows the history allows;
//   P1  a procedure panic in Dispatch (build_region_mapping);
//   P2  a group created after a metasrv restart failing with PartitionExprMismatch;
//   P3  a region accepting rows outside its expression while an unpartitioned table is
//       partitioned;
//   P4  a one-row bulk write split into requests to two datanodes;
//   P5  rows lost at the crash of a datanode that flushed a staging region (way 2), at the
//       DropRegion a rollback sends to a region it allocated (way 1), or at DeallocateRegion's
//       DropRegion of a merged-away source that took the row after its group's ExitStaging
//       (way 3);
//   P7  a NULL row accepted outside a `<>` expression;
//   P8  a published rule that overlaps after a parent failed with one group done;
//   P9  a published rule with a gap after a repartition ended done;
//   P10 a stale frontend's unversioned (bulk) write accepted outside the region's expression;
//   P11 a group retrying a region that is no longer staging after its lease expired;
//   P12 a re-executed AllocateRegion refused because the regions' WAL options exist;
//   P13 a write refused with `Undefined column` during a repartition;
//   L1  a heartbeat reply computed before a group's ApplyStaging and received after its
//       region entered staging;
//   L2  a region closed by a heartbeat between the metasrv's leader start and its procedure
//       recovery;
//   MIG-1, MIG-2  a region migration submitted while its region stages as a split's new target
//       (completed: MIG-1; rolled back: MIG-2).
// P6 (stale routes) is told by run_story.cc, which prefixes its stale-route query causes.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "checker/check/violation.h"
#include "checker/run/story_trace.h"

namespace repartsim::run {

struct StoryCause {
  std::string key;   // violations with one key are one story
  std::string text;  // the story's first line
};

// "<id> (docs/findings.md): "
std::string FindingPrefix(std::string_view id);

class FindingTeller {
 public:
  using NodeName = std::function<std::string(std::string_view node)>;
  // Reads the run-wide evidence (the classes a whole run shows) once.
  FindingTeller(const std::vector<Line>& lines, const std::vector<check::Violation>& violations,
                NodeName name);

  // A class the violation's own records show (N1, C1, K2, P13, P3), if any.
  std::optional<StoryCause> OwnFinding(const check::Violation& v) const;
  // The class the whole run shows (P1, P2, P4, P7, P8, P9, P11, P12, L1, L2, MIG-1, MIG-2), which
  // every violation without an own cause joins; nullopt when the run shows none.
  std::optional<StoryCause> RunFinding() const { return run_finding_; }
  // The class of rows lost at `event` (K1, M1, P5), as a prefix for the loss sentence; "" if none.
  // `accepted_step`: when the region took the lost row (0: unknown).
  std::string LossFinding(const Line& event, uint64_t accepted_step) const;
  // What the violation's records show and what they do not, for a violation no cause explains;
  // never its message alone.
  StoryCause Known(const check::Violation& v) const;

 private:
  std::optional<StoryCause> Adoption(const check::Violation& v) const;
  std::optional<StoryCause> FindRunFinding(const std::vector<check::Violation>& violations) const;
  std::optional<StoryCause> HeldLease() const;
  std::optional<StoryCause> SplitBulkWrite() const;
  std::optional<StoryCause> StagingMigration() const;
  // MIG-8: a migration off a datanode that restarted and had not opened the region yet.
  std::optional<StoryCause> ReopeningLeaderMigration() const;
  const Line* Last(std::string_view event, std::string_view needle, uint64_t step_max) const;
  const Line* First(std::string_view event, std::string_view needle, uint64_t step_min) const;

  const std::vector<Line>& lines_;
  NodeName name_;
  std::optional<StoryCause> run_finding_;
};

}  // namespace repartsim::run
