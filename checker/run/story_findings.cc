#include "checker/run/story_findings.h"

#include <map>
#include <set>
#include <utility>

namespace repartsim::run {

namespace {

using check::Invariant;
using check::Violation;

bool Has(std::string_view text, std::string_view needle) {
  return text.find(needle) != std::string_view::npos;
}

// The text between `open` and the next `close` after it, "" when absent.
std::string Between(std::string_view text, std::string_view open, std::string_view close) {
  const size_t at = text.find(open);
  if (at == std::string_view::npos) return "";
  const size_t start = at + open.size();
  const size_t end = text.find(close, start);
  return end == std::string_view::npos ? "" : std::string(text.substr(start, end - start));
}

// A write note of a violation ("write W from fe1 (issued at step A, acked at step B) wrote
// (ROW) into region R on dnN (accepted at step C)"), for one rendered row.
struct WriteNote {
  std::string write;  // "write 33"
  std::string region;
  uint64_t accepted_step = 0;
};

// The write notes name at most a few writes; the loss notes ("row R: last accepted by region X
// on dnN at step S") name the holder of the others.
std::optional<WriteNote> WriteOf(const Violation& v, const std::string& row) {
  for (const std::string& note : v.notes) {
    if (note.rfind("write ", 0) != 0 || !Has(note, "wrote " + row + " into region ")) continue;
    WriteNote w;
    w.write = note.substr(0, note.find(" from "));
    w.region = Between(note, row + " into region ", " on ");
    w.accepted_step = Number(Between(note, "(accepted at step ", ")"));
    return w;
  }
  for (const std::string& note : v.notes) {
    if (note.rfind("row " + row + ": last accepted by region ", 0) != 0) continue;
    WriteNote w;
    w.write = "the write";
    w.region = Between(note, "last accepted by region ", " on ");
    w.accepted_step = Number(Between(note, " at step ", ";"));
    if (w.accepted_step == 0) w.accepted_step = Number(Between(note, " at step ", ","));
    return w;
  }
  return std::nullopt;
}

// The query id a violation's context names ("op query id=17 "), "" if none.
std::string QueryId(const Violation& v) {
  for (const std::string& needle : v.context_needles) {
    if (needle.rfind("op query id=", 0) == 0) return needle.substr(12, needle.size() - 13);
  }
  return "";
}

}  // namespace

std::string FindingPrefix(std::string_view id) { return std::string(id) + " (docs/findings.md): "; }

FindingTeller::FindingTeller(const std::vector<Line>& lines,
                             const std::vector<Violation>& violations, NodeName name)
    : lines_(lines), name_(std::move(name)), run_finding_(FindRunFinding(violations)) {}

const Line* FindingTeller::Last(std::string_view event, std::string_view needle,
                                uint64_t step_max) const {
  const Line* out = nullptr;
  for (const Line& line : lines_) {
    if (line.step > step_max) break;
    if (line.event == event && Has(line.rest, needle)) out = &line;
  }
  return out;
}

const Line* FindingTeller::First(std::string_view event, std::string_view needle,
                                 uint64_t step_min) const {
  for (const Line& line : lines_) {
    if (line.step >= step_min && line.event == event && Has(line.rest, needle)) return &line;
  }
  return nullptr;
}

std::optional<StoryCause> FindingTeller::Adoption(const Violation& v) const {
  for (const std::string& row : v.rows) {
    if (row.rfind("wrong value (", 0) != 0) continue;
    const std::string returned = row.substr(12, row.find("): ") - 12 + 1);
    std::string expected = row.substr(row.find("; expected ") + 11);
    expected = expected.substr(0, expected.find(" | "));
    const auto old_write = WriteOf(v, returned);
    const auto new_write = WriteOf(v, expected);
    if (!old_write || !new_write || old_write->region == new_write->region ||
        old_write->accepted_step >= new_write->accepted_step) {
      continue;
    }
    const Line* apply =
        Last("dn.region_op", "ApplyStagingManifest " + new_write->region + " Ok", v.step);
    if (apply == nullptr) continue;
    const std::string& target = new_write->region;
    const std::string& source = old_write->region;
    return StoryCause{"N1 " + target + " " + source,
                      FindingPrefix("N1") + "region " + target + " adopted the files of region " +
                          source + " at ApplyStagingManifest on " + name_(apply->node) +
                          " at step " + std::to_string(apply->step) + " with " + source +
                          "'s sequences, which outrank the newer writes " + target +
                          " accepted itself: reads return " + old_write->write + "'s value " +
                          returned + " (accepted by " + source + " at step " +
                          std::to_string(old_write->accepted_step) + ") over " + new_write->write +
                          "'s " + expected + " (accepted at step " +
                          std::to_string(new_write->accepted_step) + ")"};
  }
  return std::nullopt;
}

std::optional<StoryCause> FindingTeller::OwnFinding(const Violation& v) const {
  if (auto adoption = Adoption(v)) return adoption;
  const std::string step = std::to_string(v.step);
  if (v.invariant == Invariant::kNoDup && Has(v.message, "counted ") &&
      Has(v.message, "expected at most")) {
    std::vector<uint64_t> applies;
    for (const Line& line : lines_) {
      if (line.step > v.step) break;
      if (line.event == "dn.region_op" && line.rest.rfind("ApplyStagingManifest ", 0) == 0) {
        applies.push_back(line.step);
      }
    }
    return StoryCause{"C1", FindingPrefix("C1") +
                                "count(*) is answered from region statistics, and the files the "
                                "regions share since ApplyStagingManifest (steps " +
                                Steps(applies) + ") are counted once per region: " + v.message};
  }
  if (v.invariant == Invariant::kAvail && Has(v.message, "checkpoint deleted")) {
    const Line* checkpoint = Last("dn.checkpoint_done", "", v.step);
    const Line* remap = Last("dn.region_op", "RemapManifest ", v.step);
    return StoryCause{
        "K2",
        FindingPrefix("K2") + "a manifest checkpoint" +
            (checkpoint != nullptr ? " of region " + std::string(checkpoint->rest) + " (done on " +
                                         name_(checkpoint->node) + " at step " +
                                         std::to_string(checkpoint->step) + ")"
                                   : std::string()) +
            " deleted a delta that RemapManifest" +
            (remap != nullptr ? " (step " + std::to_string(remap->step) + ")" : "") +
            " had listed, so loading the manifest failed and the repartition failed at step " +
            step};
  }
  if (v.invariant == Invariant::kAvail && Has(v.message, "Undefined column")) {
    const Line* state = Last("ms.state", "type=Repartition ", v.step);
    return StoryCause{
        "P13",
        FindingPrefix("P13") +
            "UpdatePartitionMetadata switched the table's partition columns before the "
            "expressions changed" +
            (state != nullptr ? " (procedure " + std::string(Field(state->rest, "procedure")) +
                                    " in " + std::string(Field(state->rest, "to")) + " at step " +
                                    std::to_string(state->step) + ")"
                              : std::string()) +
            ", so a frontend's rule of new columns and old expressions refused a write: " +
            v.message.substr(0, v.message.find(';'))};
  }
  if (v.invariant == Invariant::kOwn && Has(v.message, " accepted ") && !v.regions.empty()) {
    const Line* partition = Last("op", "partition", v.step);
    if (partition != nullptr && partition->rest.rfind("partition", 0) == 0) {
      return StoryCause{"P3 " + v.regions[0],
                        FindingPrefix("P3") + "while the unpartitioned table was partitioned " +
                            "(from step " + std::to_string(partition->step) +
                            ") the rule paired the expressions with every region by index, so " +
                            v.message + " at step " + step};
    }
  }
  return std::nullopt;
}

std::optional<StoryCause> FindingTeller::HeldLease() const {
  for (const Line& send : lines_) {
    if (send.event != "send" || Field(send.rest, "msg") != "HeartbeatReply") continue;
    const std::string dn(Field(send.rest, "to"));
    const std::string id(Field(send.rest, "id"));
    const Line* recv = First("recv", "HeartbeatReply from=metasrv id=" + id, send.step);
    const Line* apply = First("ms.state", "to=ApplyStaging ", send.step);
    if (recv == nullptr || apply == nullptr || apply->step > recv->step) continue;
    // A datanode that fences leases by version ignores it (versioned-leases): no L1.
    const Line* ignored = First("dn.stale_lease_ignored", "", recv->step);
    if (ignored != nullptr && ignored->step == recv->step && ignored->node == recv->node) continue;
    for (const Line& line : lines_) {
      if (line.step >= recv->step) break;
      if (line.step <= apply->step || line.event != "dn.region_op" || name_(line.node) != dn ||
          line.rest.rfind("EnterStaging ", 0) != 0) {
        continue;
      }
      const std::string region(line.rest.substr(13, line.rest.rfind(' ') - 13));
      return StoryCause{
          "L1", FindingPrefix("L1") + "the metasrv computed " + dn + "'s lease at step " +
                    std::to_string(send.step) + " (HeartbeatReply " + id + "), before procedure " +
                    std::string(Field(apply->rest, "procedure")) + "'s ApplyStaging (step " +
                    std::to_string(apply->step) + "), and " + dn + " received it at step " +
                    std::to_string(recv->step) + ", after region " + region +
                    " entered staging (step " + std::to_string(line.step) +
                    "): the role that lease carries ended the region's staging before the "
                    "group's ApplyStagingManifest"};
    }
  }
  return std::nullopt;
}

std::optional<StoryCause> FindingTeller::StagingMigration() const {
  for (const Line& submit : lines_) {
    if (submit.event != "ms.submit" || submit.rest.rfind("RegionMigration ", 0) != 0) continue;
    const std::string region = Between(submit.rest, "region=", " from=");
    const Line* enter = Last("dn.region_op", "EnterStaging " + region + " Ok", submit.step);
    const Line* applied = Last("dn.region_op", "ApplyStagingManifest " + region, submit.step);
    if (enter == nullptr || applied != nullptr) continue;
    // It ran while the region staged: its DowngradeRegion came before any ApplyStagingManifest
    // of the region (migration-respects-staging makes it wait for the group instead).
    const Line* downgrade = First("dn.region_op", "DowngradeRegion " + region + " ", submit.step);
    const Line* apply = First("dn.region_op", "ApplyStagingManifest " + region + " ", submit.step);
    if (downgrade == nullptr || (apply != nullptr && apply->step < downgrade->step)) continue;
    const std::string procedure(Field(submit.rest, "procedure"));
    const Line* end = First("ms.procedure", "procedure=" + procedure + " ", submit.step);
    for (const Line* at = end;
         at != nullptr && !Has(at->rest, " done") && !Has(at->rest, " failed");) {
      end = at = First("ms.procedure", "procedure=" + procedure + " ", at->step + 1);
    }
    const bool done = end != nullptr && Has(end->rest, " done");
    const std::string id = done ? "MIG-1" : "MIG-2";
    return StoryCause{
        id, FindingPrefix(id) + "region migration " + procedure + " of region " + region +
                " (submitted at step " + std::to_string(submit.step) + ") ran while the region " +
                "staged as a split's new target (since step " + std::to_string(enter->step) +
                ") and " + (done ? "completed" : "rolled back") +
                (end != nullptr ? " at step " + std::to_string(end->step) : std::string()) +
                ": DowngradeRegion ends staging without merging the staged rows, and the "
                "group's ApplyStagingManifest of the region no longer finds them"};
  }
  return std::nullopt;
}

std::optional<StoryCause> FindingTeller::ReopeningLeaderMigration() const {
  for (const Line& submit : lines_) {
    if (submit.event != "ms.submit" || submit.rest.rfind("RegionMigration ", 0) != 0) continue;
    const std::string region = Between(submit.rest, "region=", " from=");
    const std::string from = "dn" + Between(submit.rest, " from=", " to=");
    const std::string to = "dn" + std::string(Field(submit.rest, "to"));
    // The old leader answered that it has no such region: it was still opening it.
    const Line* downgrade =
        First("dn.region_op", "DowngradeRegion " + region + " RegionNotFound", submit.step);
    if (downgrade == nullptr || name_(downgrade->node) != from) continue;
    const Line* restart = Last("restart", from, submit.step);
    const Line* opening = restart == nullptr ? nullptr : First("dn.opening", "", restart->step);
    if (opening == nullptr || name_(opening->node) != from || opening->step > downgrade->step) {
      continue;
    }
    const std::string procedure(Field(submit.rest, "procedure"));
    const Line* done = First("ms.procedure", "procedure=" + procedure + " done", submit.step);
    if (done == nullptr) continue;
    return StoryCause{
        "MIG-8",
        FindingPrefix("MIG-8") + "region migration " + procedure + " of region " + region +
            " (submitted at step " + std::to_string(submit.step) + ") moved it off " + from +
            ", which restarted at step " + std::to_string(restart->step) +
            " and was still opening its regions in the background: its DowngradeRegion at step " +
            std::to_string(downgrade->step) +
            " answered RegionNotFound (exists=false), so nothing flushed the region, and the "
            "candidate on " +
            to + " was upgraded from the region's manifest without the rows " + "only in " + from +
            "'s local WAL (done at step " + std::to_string(done->step) + ")"};
  }
  return std::nullopt;
}

std::optional<StoryCause> FindingTeller::SplitBulkWrite() const {
  for (const Line& op : lines_) {
    if (op.event != "op" || op.rest.rfind("insert ", 0) != 0 || Field(op.rest, "rows") != "1" ||
        (Field(op.rest, "bulk").empty() && Field(op.rest, "flight").empty())) {
      continue;
    }
    const std::string fe(Field(op.rest, "fe"));
    const std::string id(Field(op.rest, "id"));
    std::set<std::string> targets;
    uint64_t sent_step = 0;
    for (const Line& line : lines_) {
      if (line.step < op.step || name_(line.node) != fe) continue;
      if (line.event == "fe.write_done" && Field(line.rest, "id") == id) break;
      if (line.event == "send" && Field(line.rest, "msg") == "WriteRequest") {
        targets.insert(std::string(Field(line.rest, "to")));
        sent_step = line.step;
      }
    }
    const Line* done = First("fe.write_done", "id=" + id + " ", op.step);
    if (targets.size() < 2 || done == nullptr || !Has(done->rest, " acked")) continue;
    std::string to;
    for (const std::string& t : targets) to += (to.empty() ? "" : " and ") + t;
    return StoryCause{"P4", FindingPrefix("P4") + fe + "'s one-row bulk write " + id + " (step " +
                                std::to_string(op.step) + ") was sent to " + to + " (step " +
                                std::to_string(sent_step) +
                                "): while the route holds overlapping expressions the bulk "
                                "splitter evaluates each on its own, so one row went to two "
                                "regions"};
  }
  return std::nullopt;
}

std::optional<StoryCause> FindingTeller::FindRunFinding(
    const std::vector<Violation>& violations) const {
  const auto message_with = [&](Invariant inv, std::string_view needle) -> const Violation* {
    for (const Violation& v : violations) {
      if (v.invariant == inv && Has(v.message, needle)) return &v;
    }
    return nullptr;
  };
  if (const Line* panic = First("ms.procedure", "build_region_mapping", 0)) {
    return StoryCause{
        "P1", FindingPrefix("P1") + "procedure " + std::string(Field(panic->rest, "procedure")) +
                  " panicked in Dispatch at step " + std::to_string(panic->step) + " (`" +
                  std::string(panic->rest.substr(panic->rest.find("panic: ") + 7)) +
                  "`): a group's transition map indexes the statement's whole target list; the "
                  "panicked procedure is marked Failed without rollback and its rule stays"};
  }
  if (const Line* restart = First("restart", "metasrv", 0)) {
    if (const Line* mismatch =
            First("ms.procedure", "error: PartitionExprMismatch", restart->step)) {
      const Line* apply = Last("dn.region_op", "ApplyStagingManifest ", restart->step);
      return StoryCause{
          "P2",
          FindingPrefix("P2") + "the metasrv restarted at step " + std::to_string(restart->step) +
              " and resumed the parent at Dispatch; its fresh group " +
              std::string(Field(mismatch->rest, "procedure")) + " found region " +
              Between(mismatch->rest, "region ", " expects") +
              " already holding its target expression (PartitionExprMismatch, step " +
              std::to_string(mismatch->step) + ") and failed, and the rollback restored the " +
              "route but not the data the first group's ApplyStagingManifest" +
              (apply != nullptr ? " (step " + std::to_string(apply->step) + ")" : "") +
              " had remapped"};
    }
    if (const Line* wal = First("ms.procedure", "WAL options of region", restart->step)) {
      const Line* crash = Last("crash_point", "", restart->step);
      return StoryCause{
          "P12",
          FindingPrefix("P12") + "the metasrv crashed after AllocateRegion committed the route" +
              (crash != nullptr
                   ? " (" + std::string(crash->rest) + ", step " + std::to_string(crash->step) + ")"
                   : std::string()) +
              " and, restarted at step " + std::to_string(restart->step) +
              ", re-ran AllocateRegion::Execute, whose region " +
              Between(wal->rest, "WAL options of region ", " already") +
              " refused to overwrite its WAL options (step " + std::to_string(wal->step) +
              "): the repartition rolled back and dropped the new regions with their rows"};
    }
  }
  if (const Line* leader = First("ms.leader_start", "", 0)) {
    const Line* recovered = First("ms.procedures_recovered", "", leader->step);
    std::vector<uint64_t> closes;
    std::string first;
    for (const Line& line : lines_) {
      if (recovered != nullptr && line.step >= recovered->step) break;
      if (line.step < leader->step || line.event != "dn.close_region") continue;
      if (first.empty()) first = name_(line.node) + " closed region " + std::string(line.rest);
      closes.push_back(line.step);
    }
    if (!closes.empty()) {
      return StoryCause{
          "L2", FindingPrefix("L2") +
                    "the metasrv served heartbeats from its leader start at step " +
                    std::to_string(leader->step) + " but recovered its procedures only " +
                    (recovered != nullptr ? "at step " + std::to_string(recovered->step)
                                          : std::string("after the run")) +
                    ", so it listed the recovering CreateTable's regions as closeable: " + first +
                    " (closes at steps " + Steps(closes) + ")"};
    }
  }
  if (const Violation* overlap = message_with(Invariant::kRule, "is overlapped")) {
    const Line* failed = First("ms.procedure", "failed plans [", 0);
    const Line* done = First("ms.state", "type=RepartitionGroup", 0);
    for (const Line& line : lines_) {
      if (line.event == "ms.state" && Field(line.rest, "type") == "RepartitionGroup" &&
          Field(line.rest, "status") == "Done") {
        done = &line;
        break;
      }
    }
    if (failed != nullptr && done != nullptr && Field(done->rest, "status") == "Done") {
      return StoryCause{
          "P8", FindingPrefix("P8") + "group " + std::string(Field(done->rest, "procedure")) +
                    " finished at step " + std::to_string(done->step) +
                    " but another failed, and the parent's rollback (step " +
                    std::to_string(failed->step) +
                    ") restored only the failed group and never ran DeallocateRegion: the "
                    "merged-away regions stay routed and their rows are visible twice (" +
                    overlap->message + ")"};
    }
  }
  if (const Violation* gap = message_with(Invariant::kRule, "is not covered")) {
    for (const Line& line : lines_) {
      if (line.event == "ms.state" && Field(line.rest, "type") == "Repartition" &&
          Field(line.rest, "status") == "Done") {
        return StoryCause{
            "P9", FindingPrefix("P9") + "procedure " + std::string(Field(line.rest, "procedure")) +
                      " installed its rule at step " + std::to_string(line.step) +
                      " although it leaves a gap: the metasrv checks only that the source "
                      "expressions exist (" +
                      gap->message.substr(gap->message.find(": ") + 2) +
                      "), and rows of the gap are in no region"};
      }
    }
  }
  if (const Line* expired = First("dn.lease_expired", "", 0)) {
    const std::string region(expired->rest);
    if (const Line* retry =
            First("ms.procedure", "Region " + region + " is in Follower state", expired->step)) {
      return StoryCause{
          "P11", FindingPrefix("P11") + "the lease of staging region " + region + " on " +
                     name_(expired->node) + " expired at step " + std::to_string(expired->step) +
                     " and took it out of staging while its route still said Staging, so group " +
                     std::string(Field(retry->rest, "procedure")) +
                     " retried a region that can never stage again (first retry at step " +
                     std::to_string(retry->step) + ")"};
    }
  }
  if (auto migrated = StagingMigration()) return migrated;
  if (auto reopening = ReopeningLeaderMigration()) return reopening;
  if (auto held = HeldLease()) return held;
  if (auto bulk = SplitBulkWrite()) return bulk;
  for (const Violation& v : violations) {
    if (v.invariant != Invariant::kOwn || !Has(v.message, "<>") || v.regions.empty()) continue;
    for (const std::string& row : v.rows) {
      if (!Has(row, "=NULL")) continue;
      return StoryCause{"P7", FindingPrefix("P7") +
                                  "the row path routes NULL by derived equality to a `<>` region, "
                                  "the bulk path and the file filter by SQL semantics: " +
                                  v.message + " at step " + std::to_string(v.step) + " (" + row +
                                  "), and the filter drops such rows once their files are "
                                  "remapped"};
    }
  }
  return std::nullopt;
}

std::string FindingTeller::LossFinding(const Line& event, uint64_t accepted_step) const {
  if (event.event == "dn.compact") {
    // MIG-9: the compacting copy is a migration's candidate that UpgradeRegion made writable
    // and whose migration then rolled back: a second writer of the region's manifest.
    const std::string region(event.rest.substr(0, event.rest.find(") ") + 1));
    const Line* upgraded = Last("dn.region_op", "UpgradeRegion " + region + " Ok", event.step);
    if (upgraded != nullptr && upgraded->node == event.node) {
      // The rollback may come after the compaction: the old leader takes the region back
      // either way, with a manifest the candidate rewrote.
      const Line* rollback = First("ms.state", "to=UpdateMetadataRollback", upgraded->step);
      if (rollback != nullptr) {
        return FindingPrefix("MIG-9") + "UpgradeRegion made " + name_(event.node) +
               "'s candidate copy of region " + region + " writable at step " +
               std::to_string(upgraded->step) + ", its migration (procedure " +
               std::string(Field(rollback->rest, "procedure")) + ") rolled back at step " +
               std::to_string(rollback->step) + " without closing it, and that copy, which " +
               "the route never named the leader, compacted the region's files: ";
      }
    }
    return FindingPrefix("K1") +
           "a compaction writes every output row at its largest input sequence, lifting old "
           "values above newer writes: ";
  }
  if (event.event == "dn.region_op" && event.rest.rfind("DropRegion ", 0) == 0) {
    const std::string region(event.rest.substr(11, event.rest.rfind(' ') - 11));
    const Line* state = Last("ms.state", "type=Repartition ", event.step);
    if (state == nullptr) return "";
    const std::string procedure(Field(state->rest, "procedure"));
    const Line* created = Last("dn.region_op", "CreateRegion " + region + " Ok", event.step);
    const Line* submitted = Last("ms.submit", "procedure=" + procedure, event.step);
    if (Field(state->rest, "status") == "RollingBack" && created != nullptr &&
        submitted != nullptr && created->step > submitted->step) {
      return FindingPrefix("P5") + "region " + region + " was allocated by procedure " + procedure +
             " (created at step " + std::to_string(created->step) +
             "), took rows, and was dropped with them when the procedure rolled back; ";
    }
    const Line* exit = Last("ms.state", "to=ExitStaging ", event.step);
    if (Field(state->rest, "to") == "DeallocateRegion" && exit != nullptr &&
        accepted_step > exit->step) {
      return FindingPrefix("P5") + "merged-away region " + region + " took the row at step " +
             std::to_string(accepted_step) + ", after its group's ExitStaging (step " +
             std::to_string(exit->step) + ") gave it a Leader lease again, and DeallocateRegion " +
             "dropped it; ";
    }
    return "";
  }
  if (event.event == "dn.close_region") {
    const std::string region(event.rest);
    const Line* created = Last("dn.region_op", "CreateRegion " + region + " Ok", event.step);
    const Line* dropped = Last("dn.region_op", "DropRegion " + region + " Ok", event.step);
    if (created == nullptr || dropped == nullptr || created->step < dropped->step ||
        accepted_step < created->step) {
      return "";
    }
    return FindingPrefix("M1") + "a late CreateRegion re-created region " + region + " at step " +
           std::to_string(created->step) + ", after DropRegion dropped it at step " +
           std::to_string(dropped->step) + "; unrouted, it took the row at step " +
           std::to_string(accepted_step) + " and was closed as closeable: ";
  }
  if (event.event != "crash") return "";
  // A staging region of the crashed datanode that flushed: its rows were only in the staging
  // manifest, and their WAL entries obsolete.
  for (const Line& enter : lines_) {
    if (enter.step > event.step) break;
    if (enter.node != event.node || enter.event != "dn.region_op" ||
        enter.rest.rfind("EnterStaging ", 0) != 0) {
      continue;
    }
    const std::string region(enter.rest.substr(13, enter.rest.rfind(' ') - 13));
    for (const Line& flush : lines_) {
      if (flush.step > event.step) break;
      if (flush.step > enter.step && flush.node == event.node && flush.event == "dn.flush" &&
          flush.rest.rfind(region + " ", 0) == 0) {
        return FindingPrefix("P5") + name_(event.node) + " flushed staging region " + region +
               " at step " + std::to_string(flush.step) +
               ", recording the rows only in its staging manifest and obsoleting their WAL "
               "entries; ";
      }
    }
  }
  return "";
}

StoryCause FindingTeller::Known(const Violation& v) const {
  const std::string step = std::to_string(v.step);
  const std::string id = QueryId(v);
  const Line* plan = id.empty() ? nullptr : First("fe.query_plan", "id=" + id + " ", 0);
  if (plan != nullptr) {
    const Line* state = Last("ms.state", "", plan->step);
    const bool running = state != nullptr && Field(state->rest, "status") != "Done" &&
                         Field(state->rest, "status") != "Failed";
    const std::string during = running ? ", while procedure " +
                                             std::string(Field(state->rest, "procedure")) +
                                             " was in " + std::string(Field(state->rest, "to"))
                                       : std::string();
    const std::string what = "query " + id + " from " + name_(plan->node) + " planned at step " +
                             std::to_string(plan->step) + " with the current route (version " +
                             std::string(Field(plan->rest, "version")) + ", regions " +
                             std::string(Field(plan->rest, "regions")) + ")" + during;
    if (Has(v.message, "counted ")) {
      return {"count " + std::string(Field(plan->rest, "version")),
              what + ", " + v.message.substr(v.message.find("counted ")) +
                  "; a count returns no rows, so which rows it missed or doubled is not known"};
    }
    return {"read " + id, what + ": " + v.message + "; no event the report traces lost those rows"};
  }
  if (v.invariant == Invariant::kMeta && !v.regions.empty()) {
    const std::string& region = v.regions[0];
    if (Has(v.message, " but routed with ")) {
      const Line* apply = Last("dn.region_op", "ApplyStagingManifest " + region + " Ok", v.step);
      const Line* rollback = Last("ms.state", "status=RollingBack", v.step);
      if (apply != nullptr && rollback != nullptr && rollback->step > apply->step) {
        return {"meta " + region,
                "region " + region + " kept the expression ApplyStagingManifest gave it on " +
                    name_(apply->node) + " at step " + std::to_string(apply->step) +
                    ", but procedure " + std::string(Field(rollback->rest, "procedure")) +
                    " rolled back the route at step " + std::to_string(rollback->step) +
                    ": the route and the region disagree on its expression"};
      }
    }
    const Line* close = Last("dn.close_region", region, v.step);
    if (close != nullptr) {
      return {"meta " + region, name_(close->node) + " closed region " + region + " at step " +
                                    std::to_string(close->step) +
                                    " and nothing reopened it, but the route still places it "
                                    "there (checked at step " +
                                    step + ")"};
    }
  }
  if (v.invariant == Invariant::kLive && Has(v.message, "did not end")) {
    const std::string procedure = Between(v.message, "procedure ", " ");
    const Line* retry = Last("ms.procedure", "procedure=" + procedure + " retry later: ", v.step);
    if (retry != nullptr) {
      return {"stuck " + procedure,
              "procedure " + procedure + " kept retrying until the end of the run (last at step " +
                  std::to_string(retry->step) + ": " +
                  std::string(retry->rest.substr(retry->rest.find("retry later: ") + 13)) +
                  "); why the retried state never came is not derived"};
    }
  }
  if (v.invariant == Invariant::kLive && Has(v.message, "not found")) {
    const std::string region = Between(v.message, "rejected: Region ", " not found");
    const Line* drop = Last("dn.region_op", "DropRegion " + region, v.step);
    const Line* close = Last("dn.close_region", region, v.step);
    const Line* gone = drop != nullptr ? drop : close;
    if (gone != nullptr) {
      return {"gone " + region,
              "writes kept going to region " + region + ", which " + name_(gone->node) +
                  (gone == drop ? " dropped" : " closed") + " at step " +
                  std::to_string(gone->step) +
                  ": the writer's route still named it after faults healed, and no route " +
                  "refresh replaced it (" + v.message.substr(0, v.message.find(':')) + ")"};
    }
  }
  if (v.invariant == Invariant::kAvail && Has(v.message, "concurrent invalidation")) {
    std::vector<uint64_t> discarded;
    for (const Line& line : lines_) {
      if (line.step > v.step) break;
      if (line.event == "fe.fill_discarded") discarded.push_back(line.step);
    }
    return {"fill",
            "each route fill was discarded by an invalidation that arrived while it ran "
            "(steps " +
                Steps(discarded) +
                "), and the fourth attempt gave up: " + v.message.substr(0, v.message.find(':'))};
  }
  if (v.invariant == Invariant::kAvail && Has(v.message, "Stale captured peer: region ")) {
    const std::string region = Between(v.message, "Stale captured peer: region ", " moved from");
    const Line* submit = Last("ms.submit", "region=" + region + " ", v.step);
    const Line* close = Last("dn.region_op", "CloseRegion " + region + " Ok", v.step);
    if (submit != nullptr && submit->rest.rfind("RegionMigration ", 0) == 0) {
      const std::string from = "dn" + Between(submit->rest, " from=", " to=");
      const std::string to = "dn" + std::string(Field(submit->rest, "to"));
      return {
          "MIG-3 " + region,
          FindingPrefix("MIG-3") + "region migration " +
              std::string(Field(submit->rest, "procedure")) + " of region " + region +
              " (submitted at step " + std::to_string(submit->step) + ") moved it from " + from +
              " to " + to + " while a repartition group used it; the group kept " + "sending to " +
              from + ", the leader it captured at its start" +
              (close != nullptr ? ", which closed the region at step " + std::to_string(close->step)
                                : std::string()) +
              ", and aborted on RegionNotFound at step " + step +
              ", so the DDL failed for nothing but the move"};
    }
  }
  if (v.invariant == Invariant::kDdlRejected) {
    return {"ddl " + v.message,
            "the run did not test what its scenario scripts: the cluster refused the DDL at step " +
                step + " (" + v.message.substr(v.message.find("rejected: ") + 10) + ")"};
  }
  return {std::string(check::InvariantName(v.invariant)) + " " + v.message,
          "at step " + step + ", " + v.message +
              "; the report derives no cause for it (no loss event, stale route or known class)"};
}

}  // namespace repartsim::run
