#include "checker/check/violation.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "sim/assert.h"

namespace repartsim::check {

namespace {

constexpr Invariant kAllInvariants[] = {
    Invariant::kRule,        Invariant::kOwn,         Invariant::kNoOmit, Invariant::kNoDup,
    Invariant::kNoPhantom,   Invariant::kAck,         Invariant::kMeta,   Invariant::kLive,
    Invariant::kReadAnomaly, Invariant::kDdlRejected, Invariant::kAvail};

// Report order: the state that is wrong at rest first (lost acknowledged rows, ownership,
// rule, metadata), then wrong query results, then a rejected scripted DDL, liveness, and the
// tolerated read anomalies last.
int DecisiveRank(Invariant invariant) {
  switch (invariant) {
    case Invariant::kAck:
      return 0;
    case Invariant::kOwn:
      return 1;
    case Invariant::kRule:
      return 2;
    case Invariant::kMeta:
      return 3;
    case Invariant::kNoPhantom:
      return 4;
    case Invariant::kNoDup:
      return 5;
    case Invariant::kNoOmit:
      return 6;
    case Invariant::kDdlRejected:
      return 7;
    case Invariant::kLive:
      return 8;
    case Invariant::kAvail:
      return 9;
    case Invariant::kReadAnomaly:
      return 10;
  }
  REPARTSIM_UNREACHABLE();
}

// The step a trace line starts with ("<step> <time_ms> ..."), nullopt if it does not.
std::optional<uint64_t> LeadingStep(const std::string& line) {
  size_t end = 0;
  uint64_t step = 0;
  while (end < line.size() && line[end] >= '0' && line[end] <= '9') {
    step = step * 10 + static_cast<uint64_t>(line[end] - '0');
    ++end;
  }
  if (end == 0 || end == line.size() || line[end] != ' ') return std::nullopt;
  return step;
}

}  // namespace

std::string_view InvariantName(Invariant invariant) {
  switch (invariant) {
    case Invariant::kRule:
      return "INV-RULE";
    case Invariant::kOwn:
      return "INV-OWN";
    case Invariant::kNoOmit:
      return "INV-NOOMIT";
    case Invariant::kNoDup:
      return "INV-NODUP";
    case Invariant::kNoPhantom:
      return "INV-NOPHANTOM";
    case Invariant::kAck:
      return "INV-ACK";
    case Invariant::kMeta:
      return "INV-META";
    case Invariant::kLive:
      return "INV-LIVE";
    case Invariant::kReadAnomaly:
      return "READ-ANOMALY";
    case Invariant::kDdlRejected:
      return "DDL-REJECTED";
    case Invariant::kAvail:
      return "INV-AVAIL";
  }
  REPARTSIM_UNREACHABLE();
}

std::optional<Invariant> ParseInvariant(std::string_view name) {
  for (Invariant invariant : kAllInvariants) {
    if (InvariantName(invariant) == name) return invariant;
  }
  return std::nullopt;
}

bool IsLivenessInvariant(Invariant invariant) {
  return invariant == Invariant::kLive || invariant == Invariant::kAvail;
}

namespace {

// A trace line without its step and time, and with the digits of its `id=` fields folded.
std::string RepeatKey(const std::string& line) {
  size_t at = line.find(' ');
  at = at == std::string::npos ? line.size() : line.find(' ', at + 1);
  std::string out = at == std::string::npos ? std::string() : line.substr(at);
  for (size_t id = out.find(" id="); id != std::string::npos; id = out.find(" id=", id + 4)) {
    size_t end = id + 4;
    while (end < out.size() && out[end] >= '0' && out[end] <= '9') ++end;
    out.replace(id + 4, end - id - 4, "#");
  }
  return out;
}

}  // namespace

std::string Violation::ToText() const {
  std::string out(InvariantName(invariant));
  out += " at step " + std::to_string(step) + " (t=" + std::to_string(time_ms) + " ms): ";
  out += message;
  out += '\n';
  for (const std::string& region : regions) out += "  region: " + region + '\n';
  for (const std::string& row : rows) out += "  row: " + row + '\n';
  for (const std::string& note : notes) out += "  note: " + note + '\n';
  // Consecutive lines that differ only in their step, time and ids (a frontend's writes
  // refused with one error, again and again) print once, counted: "... (x12, last at step S)".
  for (size_t i = 0; i < trace.size();) {
    size_t end = i + 1;
    while (end < trace.size() && RepeatKey(trace[end]) == RepeatKey(trace[i])) ++end;
    out += "  trace: " + trace[i];
    if (end - i > 1) {
      out += " (x" + std::to_string(end - i) + ", last at step " +
             trace[end - 1].substr(0, trace[end - 1].find(' ')) + ")";
    }
    out += '\n';
    i = end;
  }
  return out;
}

nlohmann::json Violation::ToJson() const {
  nlohmann::json out;
  out["invariant"] = std::string(InvariantName(invariant));
  out["step"] = step;
  out["time_ms"] = time_ms;
  out["message"] = message;
  out["rows"] = rows;
  out["regions"] = regions;
  out["notes"] = notes;
  out["trace"] = trace;
  return out;
}

void AttachTrace(Violation& violation, const std::vector<std::string>& trace_lines,
                 size_t lines_max, const std::vector<std::string>& extra_needles) {
  std::vector<const std::string*> needles;
  for (const std::string& region : violation.regions) needles.push_back(&region);
  for (const std::string& needle : extra_needles) needles.push_back(&needle);
  std::vector<const std::string*> hits;
  for (const std::string& line : trace_lines) {
    // Lines are in step order: stop at the first one after the violation's step.
    if (std::optional<uint64_t> step = LeadingStep(line); step && *step > violation.step) break;
    for (const std::string* needle : needles) {
      if (!needle->empty() && line.find(*needle) != std::string::npos) {
        hits.push_back(&line);
        break;
      }
    }
  }
  size_t first = hits.size() > lines_max ? hits.size() - lines_max : 0;
  violation.trace.clear();
  for (size_t i = first; i < hits.size(); ++i) violation.trace.push_back(*hits[i]);
}

void AttachLossEvents(Violation& violation, const std::vector<std::string>& trace_lines,
                      size_t probes_max) {
  // The first line after `after_step` (at or before the violation) that drops, replaces or
  // loses `region`'s data, as the trace prints those events; `node` is the datanode name
  // ("" when unknown: crashes are not looked at).
  auto first_loss = [&](const std::string& region, const std::string& node,
                        uint64_t after_step) -> const std::string* {
    const std::string r = " " + region;
    const std::string events[] = {
        "dn.region_op DropRegion" + r + " Ok",
        "dn.region_op ApplyStagingManifest" + r + " Ok",
        "dn.close_region" + r,
        "dn.lease_expired" + r,
        node.empty() ? std::string() : " crash " + node,
    };
    // A crash keeps the WAL: when the reopen after it skipped an entry of the region it could
    // not apply (dn.replay_skip, before any other such event), that skip lost the data.
    const std::string skipped = " dn.replay_skip region=" + region + " ";
    // A compaction rewrites the region's files ("dn.compact <region> Ok rows=N").
    const std::string compacted = " dn.compact" + r + " Ok ";
    // GC deleting a file the region's manifest still lists ("ms.gc_delete file=F
    // listed_by=<region>") loses the file's rows whatever else happened to the region.
    const std::string gc_deleted = " listed_by=" + region;
    for (const std::string& line : trace_lines) {
      std::optional<uint64_t> step = LeadingStep(line);
      if (!step || *step <= after_step) continue;
      if (*step > violation.step) break;
      if (line.find(" ms.gc_delete ") != std::string::npos &&
          line.find(gc_deleted) != std::string::npos) {
        return &line;
      }
    }
    const std::string* crash = nullptr;
    for (const std::string& line : trace_lines) {
      std::optional<uint64_t> step = LeadingStep(line);
      if (!step || *step <= after_step) continue;
      if (*step > violation.step) break;
      if (crash != nullptr && line.find(skipped) != std::string::npos) return &line;
      if (line.find(compacted) != std::string::npos) return crash != nullptr ? crash : &line;
      for (const std::string& event : events) {
        if (event.empty() || line.size() < event.size()) continue;
        if (line.compare(line.size() - event.size(), event.size(), event) != 0) continue;
        if (&event != &events[4]) return crash != nullptr ? crash : &line;
        if (crash == nullptr) crash = &line;
      }
    }
    return crash;
  };
  auto add_needle = [&](const std::string& line) {
    if (std::find(violation.context_needles.begin(), violation.context_needles.end(), line) ==
        violation.context_needles.end()) {
      violation.context_needles.push_back(line);
    }
  };
  size_t explained = 0;
  for (const Violation::LossProbe& probe : violation.loss_probes) {
    if (explained == probes_max) break;
    ++explained;
    std::string note = "row " + probe.row + ": last accepted by region " + probe.region + " on " +
                       probe.node + " at step " + std::to_string(probe.after_step) + probe.remark;
    const std::string* found = first_loss(probe.region, probe.node, probe.after_step);
    const bool moved = found != nullptr && !probe.final_region.empty() &&
                       found->find(" dn.region_op ApplyStagingManifest " + probe.region + " ") !=
                           std::string::npos;
    if (moved) {
      // The source's ApplyStagingManifest hands the row's range to the region that owns it in
      // the final route: the row moved, it was not lost there.
      note += "; `" + *found + "` moved its range to region " + probe.final_region;
      add_needle(*found);
    } else if (found != nullptr) {
      note +=
          "; the first event after that which dropped, replaced or lost that region's "
          "data: `" +
          *found + "`";
      add_needle(*found);
    } else {
      note += "; no event after that dropped, replaced or lost that region's data";
    }
    if (moved) {
      const std::string after = "; the first event after step " + std::to_string(probe.after_step);
      if (const std::string* lost = first_loss(probe.final_region, "", probe.after_step)) {
        note += after + " which dropped, replaced or lost that region's data: `" + *lost + "`";
        add_needle(*lost);
      } else {
        note += "; no event after step " + std::to_string(probe.after_step) +
                " dropped, replaced or lost that region's data";
      }
    } else if (!probe.final_region.empty()) {
      note += "; the row belongs to region " + probe.final_region + " in the final route";
      if (const std::string* lost = first_loss(probe.final_region, "", probe.after_step)) {
        note += ", whose first such event after that was `" + *lost + "`";
        add_needle(*lost);
      } else {
        note += ", which had no such event after that";
      }
    }
    violation.notes.push_back(std::move(note));
  }
  if (violation.loss_probes.size() > explained) {
    violation.notes.push_back("... and " +
                              std::to_string(violation.loss_probes.size() - explained) +
                              " more rows whose loss the report does not trace");
  }
}

void Report::Add(Violation violation) { violations_.push_back(std::move(violation)); }

void Report::Add(std::vector<Violation> violations) {
  for (Violation& v : violations) violations_.push_back(std::move(v));
}

void Report::Add(std::optional<Violation> violation) {
  if (violation.has_value()) violations_.push_back(std::move(*violation));
}

size_t Report::Count(Invariant invariant) const {
  size_t n = 0;
  for (const Violation& v : violations_) n += v.invariant == invariant ? 1 : 0;
  return n;
}

bool Report::HasSafetyViolation() const {
  for (const Violation& v : violations_) {
    if (v.invariant != Invariant::kReadAnomaly && !IsLivenessInvariant(v.invariant)) return true;
  }
  return false;
}

std::vector<Violation> Report::Sorted() const {
  // The first violation of each invariant, by rank, then the others, by rank, then every
  // READ-ANOMALY; each part stable.
  std::vector<std::pair<int, const Violation*>> keyed;
  std::vector<bool> seen(std::size(kAllInvariants), false);
  for (const Violation& v : violations_) {
    const int rank = DecisiveRank(v.invariant);
    // Tolerated read anomalies always come last.
    keyed.emplace_back(v.invariant == Invariant::kReadAnomaly ? 30
                       : seen[rank]                           ? 15 + rank
                                                              : rank,
                       &v);
    seen[rank] = true;
  }
  std::stable_sort(keyed.begin(), keyed.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<Violation> out;
  out.reserve(keyed.size());
  for (const auto& [key, v] : keyed) out.push_back(*v);
  return out;
}

bool Report::HasLivenessViolation() const {
  return Count(Invariant::kLive) + Count(Invariant::kAvail) > 0;
}

std::string Report::ToText() const {
  std::string out;
  for (const Violation& v : violations_) out += v.ToText();
  out += "violations: " + std::to_string(violations_.size());
  std::string counts;
  for (Invariant invariant : kAllInvariants) {
    size_t n = Count(invariant);
    if (n == 0) continue;
    if (!counts.empty()) counts += ", ";
    counts += std::string(InvariantName(invariant)) + " " + std::to_string(n);
  }
  if (!counts.empty()) out += " (" + counts + ")";
  out += '\n';
  return out;
}

nlohmann::json Report::ToJson() const {
  nlohmann::json out;
  out["violations"] = nlohmann::json::array();
  for (const Violation& v : violations_) out["violations"].push_back(v.ToJson());
  nlohmann::json counts = nlohmann::json::object();
  for (Invariant invariant : kAllInvariants) {
    size_t n = Count(invariant);
    if (n > 0) counts[std::string(InvariantName(invariant))] = n;
  }
  out["counts"] = counts;
  return out;
}

}  // namespace repartsim::check
