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

// RemapManifest lost a manifest delta to a running checkpoint's cleanup (GreptimeDB #8625;
// reference: fence-checkpoints): a repartition fails for a background task of its own region.
// Found as the error of a procedure of a failed DDL.
inline constexpr std::string_view kVanishedDeltaError = "Failed to load manifest of region ";

// AllocateRegion's CAS from a route read before its CreateRegion calls lost to a concurrent
// route write (GreptimeDB before #8115; reference: allocate-route-under-lock): a repartition
// fails because a region migration wrote another region's route. Found as the error of a
// procedure of a failed DDL.
inline constexpr std::string_view kStaleRouteCasError = "Unexpected: Reads the different value";

// A repartition group sent its instruction to the leader it captured at its start, and a
// region migration had moved the region since: the old leader answered RegionNotFound and the
// group aborted (reference: fence-captured-peers, lock-new-targets). GreptimeDB's group says
// only `Unexpected: region ... does not exist`; the model words the move it saw in the route.
// Found as the error of a procedure of a failed DDL.
inline constexpr std::string_view kStaleCapturedPeerError = "Stale captured peer: ";

inline bool IsUnjustifiedRefusal(std::string_view error) {
  return error.rfind(kUndefinedColumnError, 0) == 0 || error.rfind(kCacheLoadFailedError, 0) == 0 ||
         error.rfind(kVanishedDeltaError, 0) == 0 || error.rfind(kStaleRouteCasError, 0) == 0 ||
         error.rfind(kStaleCapturedPeerError, 0) == 0;
}

}  // namespace repartsim::model
