#include "model/meta/table_metadata.h"

#include <utility>

#include "model/meta/meta_keys.h"
#include "sim/assert.h"

namespace repartsim::model {
namespace {

std::string DifferentValue(const std::optional<std::string>& got, std::string_view during,
                           const std::string& expected) {
  std::string message = "Reads the different value: ";
  message += got ? *got : std::string("None");
  message += " during ";
  message += during;
  message += ", expected: ";
  message += expected;
  return message;
}

// One-key CAS with the "already equals the intended value" escape.
MetaUpdateResult CasOrAlreadyEqual(KvStore& kv, const std::string& key,
                                   const std::optional<std::string>& expected,
                                   std::string new_bytes, std::string_view during) {
  KvCasResult cas = kv.CompareAndPut(key, expected, new_bytes);
  if (cas.succeeded) return MetaUpdateResult{true, ""};
  if (cas.previous && *cas.previous == new_bytes) return MetaUpdateResult{true, ""};
  return MetaUpdateResult{false, DifferentValue(cas.previous, during, new_bytes)};
}

}  // namespace

MetaUpdateResult CreateTableMetadata(KvStore& kv, const TableInfo& info, const TableRoute& route) {
  const std::string info_key = TableInfoKey(info.table_id);
  const std::string route_key = TableRouteKey(info.table_id);
  std::string info_bytes = EncodeTableInfo(info);
  std::string route_bytes = EncodeTableRoute(route);
  KvTxn txn;
  txn.compares = {KvCompare{info_key, std::nullopt}, KvCompare{route_key, std::nullopt}};
  txn.on_success = {KvOp::Put(info_key, info_bytes), KvOp::Put(route_key, route_bytes)};
  KvTxnResult result = kv.Txn(txn);
  if (result.succeeded) return MetaUpdateResult{true, ""};
  REPARTSIM_ASSERT(result.read.size() == 2);
  if (result.read[0] != info_bytes) {
    return MetaUpdateResult{false,
                            DifferentValue(result.read[0], "Creating table metadata", info_bytes)};
  }
  if (result.read[1] != route_bytes) {
    return MetaUpdateResult{false,
                            DifferentValue(result.read[1], "Creating table metadata", route_bytes)};
  }
  return MetaUpdateResult{true, ""};
}

MetaUpdateResult UpdateTableRoute(KvStore& kv, TableId table, const std::string& current_raw,
                                  const TableRoute& current, std::vector<RegionRoute> new_routes) {
  TableRoute next = current.Updated(std::move(new_routes));
  return CasOrAlreadyEqual(kv, TableRouteKey(table), current_raw, EncodeTableRoute(next),
                           "Updating table route");
}

MetaUpdateResult UpdateTableInfo(KvStore& kv, TableId table, const std::string& current_raw,
                                 const TableInfo& new_info) {
  REPARTSIM_ASSERT(new_info.table_id == table);
  return CasOrAlreadyEqual(kv, TableInfoKey(table), current_raw, EncodeTableInfo(new_info),
                           "Updating table info");
}

std::optional<TableRoute> ReadTableRoute(const KvStore& kv, TableId table) {
  const std::string* bytes = kv.Find(TableRouteKey(table));
  if (bytes == nullptr) return std::nullopt;
  sim::Result<TableRoute> route = DecodeTableRoute(*bytes);
  REPARTSIM_ASSERT_MSG(route.ok(), "stored table route does not decode");
  return std::move(route).value();
}

std::optional<TableInfo> ReadTableInfo(const KvStore& kv, TableId table) {
  const std::string* bytes = kv.Find(TableInfoKey(table));
  if (bytes == nullptr) return std::nullopt;
  sim::Result<TableInfo> info = DecodeTableInfo(*bytes);
  REPARTSIM_ASSERT_MSG(info.ok(), "stored table info does not decode");
  return std::move(info).value();
}

}  // namespace repartsim::model
