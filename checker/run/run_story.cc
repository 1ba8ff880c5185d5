#include "checker/run/run_story.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <optional>
#include <string_view>
#include <utility>

#include "checker/check/check_at.h"
#include "checker/run/story_findings.h"
#include "checker/run/story_trace.h"
#include "sim/assert.h"

namespace repartsim::run {

namespace {

using check::Violation;

// The regions of an `ms.gc_delete` line's `listed_by=` fields, joined by " and ".
std::string ListedBy(std::string_view rest) {
  static constexpr std::string_view kKey = "listed_by=";
  std::string out;
  for (size_t at = rest.find(kKey); at != std::string_view::npos;) {
    const size_t start = at + kKey.size();
    at = rest.find(" listed_by=", start);
    if (!out.empty()) out += " and ";
    out += rest.substr(start, at == std::string_view::npos ? at : at - start);
    if (at != std::string_view::npos) ++at;
  }
  return out;
}

// The step of a loss note's acceptance ("row R: last accepted by region X on dnN at step S"),
// 0 when the note names none.
uint64_t AcceptedStep(std::string_view note) {
  static constexpr std::string_view kAt = " at step ";
  const size_t by = note.find(": last accepted by region ");
  const size_t at = by == std::string_view::npos ? by : note.find(kAt, by);
  return at == std::string_view::npos ? 0 : Number(note.substr(at + kAt.size(), 20));
}

// Digit runs folded, so "3 rows" and "5 rows" tell one story.
std::string Signature(std::string_view message) {
  std::string out;
  for (size_t i = 0; i < message.size(); ++i) {
    const bool digit = message[i] >= '0' && message[i] <= '9';
    if (!digit) {
      out += message[i];
    } else if (out.empty() || out.back() != '#') {
      out += '#';
    }
  }
  return out;
}

class Teller {
 public:
  Teller(const std::vector<std::string>& trace, const std::vector<Violation>& violations,
         const StoryContext& ctx)
      : ctx_(ctx),
        lines_(Parse(trace)),
        findings_(lines_, violations, [this](std::string_view node) { return Name(node); }) {}

  // The story key and first line of `v`, and its details.
  std::pair<std::string, std::string> Cause(const Violation& v, std::vector<std::string>& details);
  std::string ProcedureStates(uint64_t step) const;
  std::string FaultsBefore(uint64_t step) const;

 private:
  std::string Name(std::string_view node) const {
    if (node.size() < 2 || node[0] != 'n') return std::string(node);
    const uint64_t id = Number(node.substr(1));
    return id < ctx_.node_names.size() ? ctx_.node_names[id] : std::string(node);
  }
  const Line* Find(std::string_view event, std::string_view needle) const {
    for (const Line& line : lines_) {
      if (line.event == event && line.text.find(needle) != std::string_view::npos) return &line;
    }
    return nullptr;
  }
  // The last route fill of table `table` by `node` at or before `step`.
  const Line* LastFill(std::string_view node, std::string_view table, uint64_t step) const {
    const Line* out = nullptr;
    for (const Line& line : lines_) {
      if (line.step > step) break;
      if (line.node == node && line.event == "fe.route_filled" &&
          Field(line.rest, "table") == table) {
        out = &line;
      }
    }
    return out;
  }
  std::optional<std::pair<std::string, std::string>> QueryCause(
      const Violation& v, std::vector<std::string>& details) const;
  std::string Action(const Line& event) const;
  std::optional<std::pair<std::string, std::string>> LossCause(
      const Violation& v, std::vector<std::string>& details) const;
  std::optional<std::pair<std::string, std::string>> RefusedCause(
      const Violation& v, std::vector<std::string>& details) const;
  // INV-OWN at an acceptance: the frontend whose write the region accepted, and why its route
  // was stale; nullopt when the route was current (or the write is not in the trace).
  std::optional<std::pair<std::string, std::string>> WriterCause(
      const Violation& v, std::vector<std::string>& details) const;
  std::string RouteStaleness(const Line& plan, std::string_view table, uint64_t version,
                             std::vector<std::string>& details, bool* stale) const;

  static std::vector<Line> Parse(const std::vector<std::string>& trace) {
    std::vector<Line> lines;
    lines.reserve(trace.size());
    for (const std::string& text : trace) {
      if (std::optional<Line> line = ParseLine(text)) lines.push_back(*line);
    }
    return lines;
  }

  const StoryContext& ctx_;
  std::vector<Line> lines_;
  FindingTeller findings_;
};

std::string Teller::RouteStaleness(const Line& plan, std::string_view table, uint64_t version,
                                   std::vector<std::string>& details, bool* stale) const {
  const std::string fe = Name(plan.node);
  const Line* fill = LastFill(plan.node, table, plan.step);
  const uint64_t filled_at = fill != nullptr ? fill->step : 0;
  std::vector<uint64_t> invalidated, ignored, unreceived;
  std::vector<std::string> sends;  // message ids of invalidations sent to the frontend
  uint64_t newest = version, newest_step = 0;
  std::string newest_by;
  for (const Line& line : lines_) {
    if (line.step > plan.step) break;
    if (line.event == "fe.route_filled" && Field(line.rest, "table") == table &&
        Number(Field(line.rest, "version")) > newest) {
      newest = Number(Field(line.rest, "version"));
      newest_step = line.step;
      newest_by = Name(line.node);
    }
    if (line.step <= filled_at) continue;
    if (line.event == "ms.invalidate" && Field(line.rest, "table") == table) {
      invalidated.push_back(line.step);
    } else if (line.node == plan.node && line.event == "fe.invalidate_ignored" &&
               Field(line.rest, "table") == table) {
      ignored.push_back(line.step);
    } else if (line.event == "send" && Field(line.rest, "msg") == "InvalidateCache" &&
               Field(line.rest, "to") == fe) {
      sends.push_back(std::string(Field(line.rest, "id")));
    }
  }
  std::vector<uint64_t> dropped;  // of the unreceived: lost by the network
  for (const std::string& id : sends) {
    bool received = false, lost = false;
    for (const Line& line : lines_) {
      if (line.step > plan.step) break;
      if (Field(line.rest, "id") != id) continue;
      received = received || (line.node == plan.node && line.event == "recv");
      lost = lost || line.event == "net.drop" || line.event == "net.lost" ||
             (line.event == "net.rule" && line.rest.substr(0, 5) == "drop ");
    }
    if (!received) (lost ? dropped : unreceived).push_back(Number(id));
  }
  *stale = !invalidated.empty() || newest > version;
  std::string route = fe + " filled route version " + std::to_string(version) +
                      (fill != nullptr ? " at step " + std::to_string(filled_at) : "");
  if (!invalidated.empty()) {
    route += "; the metasrv invalidated the route at steps " + Steps(invalidated);
  }
  if (!ignored.empty()) route += "; " + fe + " ignored invalidations at steps " + Steps(ignored);
  if (!dropped.empty()) {
    route += "; the network dropped " + std::to_string(dropped.size()) +
             " invalidations sent to it (message ids " + Steps(dropped) + ")";
  }
  if (!unreceived.empty()) {
    route += "; " + std::to_string(unreceived.size()) +
             " invalidations sent to it were still in flight (message ids " + Steps(unreceived) +
             ")";
  }
  if (newest > version) {
    route += "; " + newest_by + " had filled version " + std::to_string(newest) + " at step " +
             std::to_string(newest_step);
  }
  route += "; final route: version " + std::to_string(ctx_.final_route_version) + ", " +
           check::Plural(ctx_.final_region_count, "region");
  details.push_back("route: " + route);
  if (!*stale) return "";
  std::string why;
  if (!ignored.empty()) {
    why = "it ignored the invalidations at steps " + Steps(ignored);
  } else if (!dropped.empty()) {
    why = "the network dropped the invalidations sent to it";
  } else if (!unreceived.empty()) {
    why = "the invalidations sent to it were still in flight";
  } else if (!invalidated.empty()) {
    why = "it planned before the invalidations at steps " + Steps(invalidated) + " reached it";
  } else {
    why = "no invalidation reached it";
  }
  return why;
}

std::optional<std::pair<std::string, std::string>> Teller::QueryCause(
    const Violation& v, std::vector<std::string>& details) const {
  std::string id;
  for (const std::string& needle : v.context_needles) {
    if (needle.rfind("op query id=", 0) == 0) id = needle.substr(12, needle.size() - 13);
  }
  if (id.empty()) return std::nullopt;
  const Line* plan = Find("fe.query_plan", "id=" + id + " ");
  if (plan == nullptr) return std::nullopt;
  const std::string_view table = Field(plan->rest, "table");
  const uint64_t version = Number(Field(plan->rest, "version"));
  const std::string_view regions = Field(plan->rest, "regions");
  const size_t region_count =
      regions.empty() ? 0
                      : static_cast<size_t>(std::count(regions.begin(), regions.end(), ',')) + 1;
  const std::string fe = Name(plan->node);
  details.push_back("operation: query " + id + " from " + fe + ", planned at step " +
                    std::to_string(plan->step) + " with route version " + std::to_string(version) +
                    " (" + check::Plural(region_count, "region") + ": " +
                    std::string(regions.empty() ? "none" : regions) + ")");
  bool stale = false;
  const std::string why = RouteStaleness(*plan, table, version, details, &stale);
  if (!stale) return std::nullopt;  // a current route: the data itself was wrong (LossCause)
  return std::make_pair("stale-route " + fe + " " + std::to_string(version),
                        FindingPrefix("P6") + fe + " planned query " + id + " at step " +
                            std::to_string(plan->step) + " with stale route version " +
                            std::to_string(version) + " (" + check::Plural(region_count, "region") +
                            ") because " + why);
}

std::string Teller::Action(const Line& event) const {
  const std::string node = Name(event.node);
  if (event.event == "crash") return node + " crashed";
  if (event.event == "dn.close_region") return node + " closed region " + std::string(event.rest);
  if (event.event == "dn.replay_skip") {
    return node + " skipped a WAL entry it could not apply while reopening (" +
           std::string(event.rest) + ")";
  }
  if (event.event == "ms.gc_delete") {
    return "GC deleted a file that region " + ListedBy(event.rest) + " still listed (" +
           std::string(event.rest.substr(0, event.rest.find(' '))) + ")";
  }
  if (event.event == "dn.compact") {
    return node + " compacted the files of region " +
           std::string(event.rest.substr(0, event.rest.rfind(" Ok ")));
  }
  if (event.event == "dn.lease_expired") {
    return "the lease of region " + std::string(event.rest) + " on " + node + " expired";
  }
  if (event.event == "dn.region_op") {
    // "<Op> <region> <code>"
    const std::string_view rest = event.rest;
    const size_t op_end = rest.find(' ');
    const size_t region_end = rest.rfind(' ');
    if (op_end != std::string_view::npos && region_end > op_end) {
      return node + " ran " + std::string(rest.substr(0, op_end)) + " on region " +
             std::string(rest.substr(op_end + 1, region_end - op_end - 1));
    }
  }
  return node + " logged `" + std::string(event.event) + " " + std::string(event.rest) + "`";
}

std::optional<std::pair<std::string, std::string>> Teller::LossCause(
    const Violation& v, std::vector<std::string>& details) const {
  static constexpr std::string_view kLost = "which dropped, replaced or lost that region's data: `";
  for (const std::string& note : v.notes) {
    const size_t at = note.find(kLost);
    if (at == std::string::npos) continue;
    const size_t start = at + kLost.size();
    const size_t end = note.find('`', start);
    if (end == std::string::npos) continue;
    const std::optional<Line> event = ParseLine(std::string_view(note).substr(start, end - start));
    if (!event) continue;
    details.push_back("lost at: `" + std::string(event->text) + "`");
    details.push_back(ProcedureStates(event->step));
    return std::make_pair("loss " + std::string(event->text),
                          findings_.LossFinding(*event, AcceptedStep(note)) +
                              "rows were lost when " + Action(*event) + " at step " +
                              std::to_string(event->step));
  }
  return std::nullopt;
}

std::optional<std::pair<std::string, std::string>> Teller::RefusedCause(
    const Violation& v, std::vector<std::string>& details) const {
  // The refused writes: those the violation's excerpt shows, else the last one refused by
  // the region its message names ("... for region <id>: ...").
  std::vector<std::optional<Line>> candidates;
  for (const std::string& text : v.trace) candidates.push_back(ParseLine(text));
  const size_t named = v.message.find("for region ");
  if (named != std::string::npos) {
    const std::string region =
        v.message.substr(named + 11, v.message.find(':', named) - named - 11);
    for (auto it = lines_.rbegin(); it != lines_.rend(); ++it) {
      if (it->step <= v.step && it->event == "fe.write_done" &&
          it->rest.find(" rejected") != std::string_view::npos &&
          it->rest.find(region) != std::string_view::npos) {
        candidates.push_back(*it);
        break;
      }
    }
  }
  for (const std::optional<Line>& line : candidates) {
    if (!line || line->event != "fe.write_done" ||
        line->rest.find(" rejected") == std::string_view::npos) {
      continue;
    }
    const std::string fe = Name(line->node);
    const Line* fill = nullptr;  // the frontend's last route fill before the violation
    for (const Line& l : lines_) {
      if (l.step > v.step) break;
      if (l.node == line->node && l.event == "fe.route_filled") fill = &l;
    }
    const std::string version = fill ? std::string(Field(fill->rest, "version")) : "none";
    details.push_back("writes: " + fe + " had route version " + version +
                      (fill ? " (filled at step " + std::to_string(fill->step) + ")" : "") +
                      "; final route: version " + std::to_string(ctx_.final_route_version) + ", " +
                      check::Plural(ctx_.final_region_count, "region"));
    return std::make_pair("refused " + fe + " " + version,
                          fe + " kept writing with route version " + version +
                              " and its writes were refused until the end (last at step " +
                              std::to_string(line->step) + ")");
  }
  return std::nullopt;
}

std::optional<std::pair<std::string, std::string>> Teller::WriterCause(
    const Violation& v, std::vector<std::string>& details) const {
  const std::string& region = v.regions.front();
  // The acceptance at the violation's step and the write request it answered (the last one
  // that node received before it, in the same step).
  const Line* recv = nullptr;
  const Line* accepted = nullptr;
  for (const Line& line : lines_) {
    if (line.step > v.step) break;
    if (line.event == "recv" && line.rest.substr(0, 13) == "WriteRequest ") recv = &line;
    if (line.step == v.step && line.event == "dn.accepted_outside" &&
        line.rest.substr(0, region.size()) == region) {
      accepted = &line;
      break;
    }
  }
  if (accepted == nullptr || recv == nullptr || recv->step != accepted->step ||
      recv->node != accepted->node) {
    return std::nullopt;
  }
  const std::string prefix = "id=" + std::string(Field(recv->rest, "id")) + " msg=WriteRequest ";
  const Line* send = nullptr;
  for (const Line& line : lines_) {
    if (line.event == "send" && line.rest.substr(0, prefix.size()) == prefix) send = &line;
    if (send != nullptr || line.step > recv->step) break;
  }
  const size_t open = region.find('('), comma = region.find(',');
  if (send == nullptr || open == std::string::npos || comma == std::string::npos) {
    return std::nullopt;
  }
  const std::string table = region.substr(open + 1, comma - open - 1);
  const Line* fill = LastFill(send->node, table, send->step);
  const uint64_t version = fill != nullptr ? Number(Field(fill->rest, "version")) : 0;
  const std::string fe = Name(send->node);
  details.push_back("operation: a write " + fe + " sent at step " + std::to_string(send->step) +
                    ", accepted by " + Name(accepted->node) + " into region " + region +
                    " at step " + std::to_string(accepted->step));
  bool stale = false;
  const std::string why = RouteStaleness(*send, table, version, details, &stale);
  if (!stale) return std::nullopt;
  const Line* op = nullptr;  // the insert the write request carried
  for (const Line& line : lines_) {
    if (line.step > send->step) break;
    if (line.event == "op" && Field(line.rest, "fe") == fe) op = &line;
  }
  const bool unversioned = op != nullptr && (!Field(op->rest, "bulk").empty());
  return std::make_pair("stale-route " + fe + " " + std::to_string(version),
                        (unversioned ? FindingPrefix("P10") + "an unversioned bulk write is "
                                                              "accepted unchecked: "
                                     : std::string()) +
                            fe + " wrote to region " + region + " at step " +
                            std::to_string(send->step) + " with stale route version " +
                            std::to_string(version) + " because " + why);
}

std::pair<std::string, std::string> Teller::Cause(const Violation& v,
                                                  std::vector<std::string>& details) {
  if (auto cause = QueryCause(v, details)) return *cause;
  if (auto own = findings_.OwnFinding(v)) return {own->key, own->text};
  if (v.invariant == check::Invariant::kOwn && !v.regions.empty()) {
    if (auto cause = WriterCause(v, details)) return *cause;
  }
  if (auto run = findings_.RunFinding()) return {run->key, run->text};
  if (auto cause = LossCause(v, details)) return *cause;
  if (v.invariant == check::Invariant::kLive) {
    if (auto cause = RefusedCause(v, details)) return *cause;
  }
  StoryCause known = findings_.Known(v);
  return {Signature(known.key), std::move(known.text)};
}

std::string Teller::ProcedureStates(uint64_t step) const {
  std::map<uint64_t, std::pair<std::string, std::string>> state;  // id -> type, state
  for (const Line& line : lines_) {
    if (line.step > step) break;
    if (line.event != "ms.state") continue;
    state[Number(Field(line.rest, "procedure"))] = {
        std::string(Field(line.rest, "type")),
        std::string(Field(line.rest, "to")) + " (" + std::string(Field(line.rest, "status")) + ")"};
  }
  std::string out;
  for (const auto& [id, s] : state) {
    if (s.second.find("(Done)") != std::string::npos ||
        s.second.find("(Failed)") != std::string::npos) {
      continue;  // ended
    }
    out += (out.empty() ? "" : ", ") + std::string("procedure ") + std::to_string(id) + " " +
           s.first + " in " + s.second;
  }
  return "procedures at step " + std::to_string(step) + ": " + (out.empty() ? "none running" : out);
}

std::string Teller::FaultsBefore(uint64_t step) const {
  std::map<std::string, std::vector<uint64_t>> faults;  // kind -> steps
  std::vector<std::string> order;
  for (const Line& line : lines_) {
    if (line.step > step) break;
    std::string kind;
    if (line.event.substr(0, 4) == "net." && line.event != "net.release" &&
        line.event != "net.reconnect") {
      kind = std::string(line.event);
    } else if (line.event == "crash" || line.event == "restart") {
      kind = std::string(line.event) + " " + std::string(line.rest);
    } else if (line.event == "dn.lease_expired") {
      kind = "lease expired on " + Name(line.node);
    } else if (line.event == "dn.replay_skip" || line.event == "dn.open_failed") {
      kind = "WAL entry failed to apply at replay on " + Name(line.node);
    } else {
      continue;
    }
    if (faults[kind].empty()) order.push_back(kind);
    faults[kind].push_back(line.step);
  }
  if (order.empty()) return "faults before step " + std::to_string(step) + ": none";
  std::string out;
  for (const std::string& kind : order) {
    const std::vector<uint64_t>& steps = faults.at(kind);
    out += (out.empty() ? "" : "; ") + kind + " x" + std::to_string(steps.size()) + " (step" +
           (steps.size() > 1 ? "s " : " ") + Steps(steps) + ")";
  }
  return "faults before step " + std::to_string(step) + ": " + out;
}

}  // namespace

std::vector<Story> BuildStories(const std::vector<Violation>& violations,
                                const std::vector<std::string>& trace, const StoryContext& ctx) {
  Teller teller(trace, violations, ctx);
  std::vector<Story> stories;
  std::map<std::string, size_t> by_key;
  std::vector<std::vector<std::pair<std::string, size_t>>> counts;  // per story, in order
  for (size_t i = 0; i < violations.size(); ++i) {
    const Violation& v = violations[i];
    std::vector<std::string> details;
    auto [key, cause] = teller.Cause(v, details);
    auto [it, fresh] = by_key.try_emplace(key, stories.size());
    if (fresh) {
      details.push_back(teller.ProcedureStates(v.step));
      details.push_back(teller.FaultsBefore(v.step));
      // Keep each detail once (a loss cause names the procedure states at its event).
      std::vector<std::string> unique;
      for (std::string& d : details) {
        if (std::find(unique.begin(), unique.end(), d) == unique.end()) {
          unique.push_back(std::move(d));
        }
      }
      stories.push_back(Story{std::move(cause), std::move(unique), {}, ""});
      counts.emplace_back();
    }
    stories[it->second].violations.push_back(i);
    auto& c = counts[it->second];
    const std::string name(check::InvariantName(v.invariant));
    auto found = std::find_if(c.begin(), c.end(), [&](const auto& p) { return p.first == name; });
    if (found == c.end()) {
      c.emplace_back(name, 1);
    } else {
      ++found->second;
    }
  }
  size_t told = 0;
  for (size_t s = 0; s < stories.size(); ++s) {
    for (const auto& [name, n] : counts[s]) {
      stories[s].invariants +=
          (stories[s].invariants.empty() ? "" : ", ") + name + " x" + std::to_string(n);
    }
    told += stories[s].violations.size();
  }
  REPARTSIM_ASSERT(told == violations.size());
  return stories;
}

}  // namespace repartsim::run
