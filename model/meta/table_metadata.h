// Table metadata updates with the real system's compare-and-swap semantics (key.rs,
// docs/protocol.md section 2.4): the update compares the raw bytes read earlier; if the compare
// fails but the stored value already equals the intended new value, the update still succeeds;
// otherwise it fails with status Unexpected and the message "Reads the different value: <stored>
// during <what>, expected: <intended>". Only the route/info keys are modelled (no __dn_table or
// topic keys).
#pragma once

#include <optional>
#include <string>

#include "model/meta/ids.h"
#include "model/meta/kv_store.h"
#include "model/meta/meta_codec.h"
#include "model/meta/region_route.h"
#include "model/meta/table_info.h"

namespace repartsim::model {

struct MetaUpdateResult {
  bool ok = false;
  std::string error;  // "" when ok
};

// create_table_metadata: puts info and route iff both keys are absent; when they exist and
// equal the intended values, succeeds; else "Reads the different value ... during Creating
// table metadata ...".
MetaUpdateResult CreateTableMetadata(KvStore& kv, const TableInfo& info, const TableRoute& route);

// update_table_route: writes `current.Updated(new_routes)` iff __table_route/{table} still holds
// `current_raw` (the bytes the caller decoded `current` from).
MetaUpdateResult UpdateTableRoute(KvStore& kv, TableId table, const std::string& current_raw,
                                  const TableRoute& current, std::vector<RegionRoute> new_routes);

// update_table_info: the same CAS semantics for __table_info/{table}.
MetaUpdateResult UpdateTableInfo(KvStore& kv, TableId table, const std::string& current_raw,
                                 const TableInfo& new_info);

// Reads and decodes a key; nullopt when absent. A present but undecodable value is a simulator
// bug (the model only stores encoded values) and asserts.
std::optional<TableRoute> ReadTableRoute(const KvStore& kv, TableId table);
std::optional<TableInfo> ReadTableInfo(const KvStore& kv, TableId table);

}  // namespace repartsim::model
