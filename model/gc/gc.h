// One garbage-collection pass over the SST files of a table in the shared object store, as the
// metasrv's batch GC procedure and the datanodes' GC workers of the modelled commit decide it
// (docs/protocol.md section 11), run in one step:
//   - the references are the files every region of the table route lists in its normal
//     manifest (a region's related regions are the whole route), read from the object store,
//     but for the `unread` ones (Cluster::GcReferenceRegions: a leader that had not opened the
//     region, before GreptimeDB #8445);
//   - a region the pass collects (open as leader on a running datanode, not locked by a
//     running procedure: a repartition group write-locks its sources) offers the files its
//     manifest recorded as removed at least `lingering_ms` ago (fast mode; GreptimeDB's
//     default lingering time is one hour);
//   - a dropped region that __table_repart lists as a source offers every file it wrote
//     (GreptimeDB deletes a dropped region's unknown files at once);
//   - an offered file no reference names is deleted. Unknown files of open regions (a full
//     listing) wait one day, longer than any run, so the pass never offers them.
// Rule::kGcPositiveProof: an offered file is kept while a staging manifest, a remap blob or the
// normal manifest of a region outside the route references it (what GetFileRefs cannot show).
#pragma once

#include <cstddef>
#include <cstdint>
#include <set>
#include <vector>

#include "model/datanode/object_store.h"
#include "model/meta/ids.h"
#include "model/meta/kv_store.h"
#include "model/protocol/protocol.h"
#include "sim/time.h"

namespace repartsim::model {

struct GcReport {
  std::vector<FileId> deleted;  // ascending file id
  size_t files_examined = 0;    // files of the table present before the pass
  size_t regions_collected = 0;
};

struct GcScope {
  TableId table;
  std::vector<RegionId> route;     // the regions of the table route
  std::set<RegionId> collectable;  // route regions whose GC runs now
  sim::SimTime now;
  int64_t lingering_ms = 3'600'000;  // removed files are kept this long
  std::set<RegionId> unread;         // route regions whose references were left out
};

// Deletes the files of `scope.table` the pass finds garbage. A malformed __table_repart value
// is a simulator bug (asserts); an absent one is an empty mapping.
GcReport RunGc(ObjectStore& store, const KvStore& kv, const GcScope& scope,
               const Protocol& protocol);

}  // namespace repartsim::model
