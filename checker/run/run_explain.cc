#include "checker/run/run_explain.h"

#include <algorithm>
#include <map>
#include <string>

#include "checker/check/probe_rows.h"
#include "checker/check/row_text.h"
#include "model/meta/table_metadata.h"
#include "sim/assert.h"

namespace repartsim::run {

using check::Violation;

namespace {

// The last region that accepted each rendered row (History::acceptances, in step order), at
// or before `step_max`.
std::map<std::string, const model::Acceptance*> LastHolders(const CheckInput& in,
                                                            uint64_t step_max) {
  std::map<std::string, const model::Acceptance*> out;
  const model::TableSchema& schema = in.scenario->table.schema;
  for (const model::Acceptance& a : in.cluster->history().acceptances) {
    if (a.step > step_max) break;
    if (a.region.table_id() != in.scenario->table_id()) continue;
    in.cluster->history().ForEachAcceptedRow(a, [&](const model::Row& row) {
      if (row.size() == schema.columns.size()) out[check::RenderRow(schema, row)] = &a;
    });
  }
  return out;
}

// The last acceptance of each (write, rendered row): the region that accepted that write's
// row, found by the write's identity (Acceptance::write_id), never by equal values (another
// write of the same values is another event).
std::map<std::pair<uint64_t, std::string>, const model::Acceptance*> WriteHolders(
    const CheckInput& in) {
  std::map<std::pair<uint64_t, std::string>, const model::Acceptance*> out;
  const model::TableSchema& schema = in.scenario->table.schema;
  for (const model::Acceptance& a : in.cluster->history().acceptances) {
    if (a.write_id == 0 || a.region.table_id() != in.scenario->table_id()) continue;
    in.cluster->history().ForEachAcceptedRow(a, [&](const model::Row& row) {
      if (row.size() == schema.columns.size()) {
        out[{a.write_id, check::RenderRow(schema, row)}] = &a;
      }
    });
  }
  return out;
}

// The rendered rows of `v` that `text` (a rendered row) appears in.
bool NamesRow(const Violation& v, const std::string& text) {
  for (const std::string& row : v.rows) {
    if (row.find(text) != std::string::npos) return true;
  }
  return false;
}

// Whether `text` is a row `v` misses: any row it names, except the stale value a "wrong
// value (<stale>): ...; expected (<row>)" entry read instead of the expected one.
bool NamesMissingRow(const Violation& v, const std::string& text) {
  for (const std::string& row : v.rows) {
    const size_t expected = row.rfind("; expected (");
    const size_t from =
        row.rfind("wrong value (", 0) == 0 && expected != std::string::npos ? expected : 0;
    if (row.find(text, from) != std::string::npos) return true;
  }
  return false;
}

// The note on a write of one of `v`'s rows (who wrote `text`, when, its outcome, the region
// that accepted it), and its operation's trace lines as context needles.
void NoteWrite(const CheckInput& in, const model::WriteRecord& rec, const std::string& text,
               const std::map<std::pair<uint64_t, std::string>, const model::Acceptance*>& holders,
               Violation& v) {
  std::string into;
  const auto holder = holders.find({rec.id, text});
  if (holder != holders.end()) {
    REPARTSIM_ASSERT(holder->second->write_id == rec.id);
    into = " into region " + holder->second->region.ToString() + " on " +
           in.cluster->NodeName(holder->second->node) + " (accepted at step " +
           std::to_string(holder->second->step) + ")";
  }
  v.notes.push_back("write " + std::to_string(rec.id) + " from " +
                    in.cluster->NodeName(rec.frontend) + " (issued at step " +
                    std::to_string(rec.start_step) + ", " + model::WriteStatusName(rec.status) +
                    (rec.status == model::WriteStatus::kPending
                         ? ""
                         : " at step " + std::to_string(rec.end_step)) +
                    ") wrote " + text + into);
  const std::string id = std::to_string(rec.id);
  for (std::string needle : {"op insert id=" + id + " ", "fe.write_done id=" + id + " "}) {
    if (std::find(v.context_needles.begin(), v.context_needles.end(), needle) ==
        v.context_needles.end()) {
      v.context_needles.push_back(std::move(needle));
    }
  }
}

// A row of a write the table's datanodes may hold (the write was not rejected), rendered.
struct Written {
  std::string text;
  const model::WriteRecord* write;
  model::Row row;
};

std::vector<Written> WrittenRows(const CheckInput& in) {
  const model::TableSchema& schema = in.scenario->table.schema;
  std::vector<Written> written;
  for (const model::WriteRecord& w : in.cluster->history().writes) {
    if (w.table != in.scenario->table_id() || w.status == model::WriteStatus::kRejected) continue;
    for (model::Row& row : in.cluster->history().RowsOf(w)) {
      if (row.size() == schema.columns.size()) {
        std::string text = check::RenderRow(schema, row);
        written.push_back({std::move(text), &w, std::move(row)});
      }
    }
  }
  return written;
}

}  // namespace

void ExplainQueryRows(const CheckInput& in, const model::QueryRecord& q, Violation& v) {
  const std::map<std::string, const model::Acceptance*> holders = LastHolders(in, q.end_step);
  size_t missing = 0;
  for (const auto& [text, a] : holders) {
    if (!NamesRow(v, text)) continue;
    const bool scanned =
        std::find(q.regions.begin(), q.regions.end(), a->region) != q.regions.end();
    // The missing rows' probes first, then the stale values' (the events that lost the
    // missing rows tell the story).
    v.loss_probes.insert(
        NamesMissingRow(v, text) ? v.loss_probes.begin() + static_cast<std::ptrdiff_t>(missing++)
                                 : v.loss_probes.end(),
        Violation::LossProbe{
            text, a->region.ToString(), in.cluster->NodeName(a->node), a->step, std::string(),
            scanned ? ", which the query scanned" : ", which the query did not scan"});
    // The holder's own events: region ops it handled, its close and lease expiry (not every
    // line that mentions it, such as a write's error text).
    const std::string r = a->region.ToString();
    for (std::string needle : {r + " Ok", "dn.close_region " + r, "dn.lease_expired " + r}) {
      if (std::find(v.context_needles.begin(), v.context_needles.end(), needle) ==
          v.context_needles.end()) {
        v.context_needles.push_back(std::move(needle));
      }
    }
  }
}

void ExplainRows(const CheckInput& in, std::vector<Violation>& out) {
  constexpr size_t kNotesMax = 8;
  const bool any_rows = std::any_of(out.begin(), out.end(), [](const Violation& v) {
    return !v.rows.empty() && v.invariant != check::Invariant::kOwn;
  });
  if (!any_rows) return;  // nothing to explain: do not index the run's rows
  const model::TableSchema& schema = in.scenario->table.schema;
  const std::vector<Written> written = WrittenRows(in);
  std::optional<model::TableRoute> route =
      model::ReadTableRoute(in.cluster->metasrv().kv(), in.scenario->table_id());
  std::vector<check::ProbeRegion> regions;
  if (route) {
    for (const model::RegionRoute& r : route->region_routes) {
      regions.push_back({r.region_id, r.partition_expr ? &*r.partition_expr : nullptr});
    }
  }
  const std::map<std::string, const model::Acceptance*> last_holders = LastHolders(in, UINT64_MAX);
  const auto write_holders = WriteHolders(in);
  for (Violation& v : out) {
    if (v.rows.empty() || v.invariant == check::Invariant::kOwn) continue;
    const bool ack = v.invariant == check::Invariant::kAck;
    const bool name_regions = ack && v.regions.empty();

    size_t listed = 0, more = 0, lost_probes = 0;
    std::vector<std::string> holders;
    for (const Written& w : written) {
      // A query's rows come from writes issued before it completed (its violation's step);
      // a later write of the same row is no part of its answer.
      if (!ack && w.write->start_step > v.step) continue;
      bool match = false;
      for (const std::string& row : v.rows) match = match || row.find(w.text) != std::string::npos;
      if (!match) continue;
      const check::ProbeRegion* final_holder = check::RegionCovering(regions, schema, w.row);
      if (name_regions && final_holder != nullptr) {
        const std::string id = final_holder->region.ToString();
        if (std::find(holders.begin(), holders.end(), id) == holders.end()) holders.push_back(id);
      }
      const bool lost = NamesMissingRow(v, w.text);  // probed before the stale values
      const auto last = last_holders.find(w.text);
      if (ack && last != last_holders.end() &&
          std::none_of(v.loss_probes.begin(), v.loss_probes.end(),
                       [&](const Violation::LossProbe& p) { return p.row == w.text; })) {
        // The lost row's last holder, and its region in the final route, for the events
        // that lost it (AttachLossEvents).
        const model::Acceptance& a = *last->second;
        v.loss_probes.insert(
            lost ? v.loss_probes.begin() + static_cast<std::ptrdiff_t>(lost_probes++)
                 : v.loss_probes.end(),
            Violation::LossProbe{w.text, a.region.ToString(), in.cluster->NodeName(a.node), a.step,
                                 final_holder != nullptr && final_holder->region != a.region
                                     ? final_holder->region.ToString()
                                     : std::string()});
      }
      if (listed == kNotesMax) {
        ++more;
        continue;
      }
      ++listed;
      NoteWrite(in, *w.write, w.text, write_holders, v);
    }
    if (more > 0)
      v.notes.push_back("... and " + std::to_string(more) + " more writes of these rows");
    if (!holders.empty()) {
      v.regions = holders;
      v.notes.push_back("the regions listed hold these rows in the final route");
    }
  }
}

}  // namespace repartsim::run
