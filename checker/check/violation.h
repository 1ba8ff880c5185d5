// A Violation is one broken invariant (docs/invariants.md) found by a checker: which
// invariant, when (step and virtual time in ms), the rows and regions involved (already
// rendered), a one-line message and the trace lines that touched them. Checkers return
// Violations instead of asserting, and a Report keeps every violation of a run (kvnemesis
// style), so seeded-bug scenarios report all that went wrong, not only the first.
// READ-ANOMALY is the tolerated read-anomaly class: recorded, but not a safety failure.
// Report order (Report::Sorted): the first violation of each invariant, then the others, each
// part ranked INV-ACK, INV-OWN, INV-RULE, INV-META, INV-NOPHANTOM, INV-NODUP, INV-NOOMIT,
// DDL-REJECTED, INV-LIVE (by check order within an invariant), then every READ-ANOMALY; so
// the decisive violation leads and one invariant's repeats never hide another.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace repartsim::check {

enum class Invariant {
  kRule,
  kOwn,
  kNoOmit,
  kNoDup,
  kNoPhantom,
  kAck,
  kMeta,
  kLive,
  kReadAnomaly,
  kDdlRejected,
  kAvail
};

// "INV-RULE", "INV-OWN", "INV-NOOMIT", "INV-NODUP", "INV-NOPHANTOM", "INV-ACK", "INV-META",
// "INV-LIVE", "READ-ANOMALY", "DDL-REJECTED" (a scripted DDL the cluster rejected: the
// scenario did not test what it says; it fails the run like a safety violation),
// "INV-AVAIL" (a statement refused with an error that no protocol state or fault justifies).
std::string_view InvariantName(Invariant invariant);
// Inverse of InvariantName; nullopt for any other text (e.g. a scenario's `expect:` typo).
std::optional<Invariant> ParseInvariant(std::string_view name);
// True for the invariants about progress rather than data (INV-LIVE, INV-AVAIL): a run that
// breaks only these exits 2, not 1.
bool IsLivenessInvariant(Invariant invariant);

struct Violation {
  Invariant invariant = Invariant::kRule;
  uint64_t step = 0;
  int64_t time_ms = 0;
  std::vector<std::string> rows;
  std::vector<std::string> regions;
  std::string message;
  std::vector<std::string> trace;
  // What led there, one line each: the query that saw it (id, frontend, steps), the writes
  // that acknowledged the rows involved (id, frontend, steps).
  std::vector<std::string> notes = {};

  // For the report's context (neither printed nor in JSON): trace needles of the events
  // related to this violation (empty: its regions), and the rows whose loss the trace should
  // explain, each with its last holder (AttachLossEvents).
  struct LossProbe {
    std::string row;          // the rendered row
    std::string region;       // RegionId::ToString() of the region that last accepted it
    std::string node;         // that region's datanode ("dn1")
    uint64_t after_step = 0;  // the step it accepted the row
    // The region whose expression covers the row in the final route, when another one (the
    // row should have moved there): its events after the acceptance are looked at too.
    std::string final_region = {};
    std::string remark = {};  // appended to the holder, e.g. ", which the query scanned"
    friend bool operator==(const LossProbe&, const LossProbe&) = default;
  };
  std::vector<std::string> context_needles = {};
  std::vector<LossProbe> loss_probes = {};

  // "INV-NODUP at step 42 (t=1500 ms): message" then indented "region:", "row:", "note:"
  // and "trace:" lines, one per item.
  std::string ToText() const;
  // {"invariant","step","time_ms","message","rows","regions","notes","trace"}.
  nlohmann::json ToJson() const;

  friend bool operator==(const Violation&, const Violation&) = default;
};

// Keeps the lines of `trace_lines` that contain any needle (defaults: the violation's
// regions) and were logged at or before the violation's step (a line starting "<step> "; lines
// without one are always eligible), the last `lines_max` of them, in trace order, as the
// violation's trace excerpt.
void AttachTrace(Violation& violation, const std::vector<std::string>& trace_lines,
                 size_t lines_max, const std::vector<std::string>& extra_needles = {});

// For each loss probe, the first trace line after its step (and at or before the violation's)
// that drops, replaces or loses the data of its region: a DropRegion or ApplyStagingManifest
// (the staging exit that replaces the region's data) handled by the region, a compaction of
// it, the region closed or its lease expired, or a crash of its datanode; and the same for its
// final-route region, if any. Adds a note per probe ("row R: last accepted by region X on dnN at
// step S; the first event after that which dropped, replaced or lost that region's data: `<line>`",
// or that none did; then "; in the final route region Y: `<line>`") and the found lines to
// the context needles.
// At most `probes_max` probes are explained; notes name the rest by count.
void AttachLossEvents(Violation& violation, const std::vector<std::string>& trace_lines,
                      size_t probes_max);

class Report {
 public:
  void Add(Violation violation);
  void Add(std::vector<Violation> violations);
  void Add(std::optional<Violation> violation);

  const std::vector<Violation>& violations() const { return violations_; }
  bool empty() const { return violations_.empty(); }
  size_t Count(Invariant invariant) const;
  // True iff a violation other than READ-ANOMALY and the liveness invariants was recorded.
  bool HasSafetyViolation() const;
  // The violations in report order (see the header comment).
  std::vector<Violation> Sorted() const;
  bool HasLivenessViolation() const;

  // Every violation's ToText(), in the order recorded, followed by a one-line summary
  // "violations: 3 (INV-NODUP 2, READ-ANOMALY 1)" or "violations: 0".
  std::string ToText() const;
  // {"violations":[...], "counts":{"INV-NODUP":2,...}}; only non-zero counts appear.
  nlohmann::json ToJson() const;

 private:
  std::vector<Violation> violations_;
};

}  // namespace repartsim::check
