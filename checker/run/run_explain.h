// What the run check adds to its violations so that a report explains itself (docs/trace.md,
// "Violation reports"): for each row a violation lists, the writes that wrote it, the region
// that last accepted it, whether a wrong query scanned that region, and the trace lines to
// show around it. Used only by run_check.cc.
#pragma once

#include <vector>

#include "checker/check/violation.h"
#include "checker/run/run_check.h"

namespace repartsim::run {

// INV-NOOMIT and the other violations of query `q`: the last region that accepted each row the
// query got wrong before it ran, whether the query scanned it, and (check::AttachLossEvents)
// what happened to that region's data since.
void ExplainQueryRows(const CheckInput& in, const model::QueryRecord& q, check::Violation& v);

// For every violation in `out` that lists rows (INV-ACK, INV-NOOMIT, ...): the acknowledged or
// unknown writes that wrote each row, so the report names the operation behind a lost row. An
// INV-ACK at quiescence also names the region that holds each such row in the final route, so
// its trace excerpt shows what happened to that region.
void ExplainRows(const CheckInput& in, std::vector<check::Violation>& out);

}  // namespace repartsim::run
