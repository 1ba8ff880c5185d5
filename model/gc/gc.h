// One synchronous garbage-collection pass over the SST files of a table in the shared object
// store (docs/protocol.md section 11). greptime: a file is deleted when the region that wrote it no
// longer references it in its normal manifest and no region in table_repart.src_to_dst[writer]
// references it in its normal manifest either; files of dropped regions (no manifest; in
// table_repart or not) are collected the same way. Staging manifests and remap blobs are not
// consulted, and the real GC's lingering time (recent files are spared) is not modelled, so
// greptime GC run during a repartition also deletes staging-only files.
// Rule::kGcPositiveProof: a file is deleted only when no normal manifest, staging manifest or
// remap blob of any region anywhere in the store references it.
#pragma once

#include <cstddef>
#include <vector>

#include "model/datanode/object_store.h"
#include "model/meta/ids.h"
#include "model/meta/kv_store.h"
#include "model/protocol.h"

namespace repartsim::model {

struct GcReport {
  std::vector<FileId> deleted;  // ascending file id
  size_t files_examined = 0;    // files of the table present before the pass
};

// Deletes the unreferenced files of `table` from `store`. A malformed __table_repart value
// is a simulator bug (asserts); an absent one is an empty mapping.
GcReport RunGc(ObjectStore& store, const KvStore& kv, TableId table, const Protocol& protocol);

}  // namespace repartsim::model
