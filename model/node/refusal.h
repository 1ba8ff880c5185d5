// Statement errors that no protocol state or fault justifies: the refusal is itself the
// defect (an availability defect, INV-AVAIL), not a consequence of a crash, a partition or a
// fence. The frontend starts such an error with one of these prefixes; the run's checker
// finds them in the history. Every other refusal (a timeout, a fenced region, a route not
// found, a rejected DDL) is justified by something the run did.
#pragma once

#include <string_view>

namespace repartsim::model {

// The row path evaluated an expression over a column the rule no longer lists (GreptimeDB's
// `Undefined column` during an ON COLUMNS repartition; reference: row-path-over-schema).
inline constexpr std::string_view kUndefinedColumnError = "Undefined column: ";
// The route cache gave up reloading a fill that kept racing invalidations (GreptimeDB's
// bounded reload; reference: versioned-cache-fills).
inline constexpr std::string_view kCacheLoadFailedError = "Failed to get latest cache value after ";

inline bool IsUnjustifiedRefusal(std::string_view error) {
  return error.rfind(kUndefinedColumnError, 0) == 0 || error.rfind(kCacheLoadFailedError, 0) == 0;
}

}  // namespace repartsim::model
