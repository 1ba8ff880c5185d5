// Canonical byte encodings of the metadata values stored in the kv store: TableRoute,
// TableInfo, TableRepart (src_to_dst map) and the partition expression (its canonical JSON
// text, parsed back by DecodePartitionExpr). Encodings are deterministic JSON (nlohmann, keys
// sorted), so equal values have equal bytes, which the CAS on raw bytes relies on.
// Decode(Encode(v)) == v for every value; malformed bytes are an Error ("<kv>" location).
#pragma once

#include <map>
#include <set>
#include <string>
#include <string_view>

#include "model/meta/ids.h"
#include "model/meta/region_route.h"
#include "model/meta/table_info.h"
#include "model/partition/expr.h"
#include "sim/result.h"

namespace repartsim::model {

// __table_repart/{table_id}: which regions' files another region references after repartition.
struct TableRepart {
  std::map<RegionId, std::set<RegionId>> src_to_dst;
  friend bool operator==(const TableRepart&, const TableRepart&) = default;
};

std::string EncodeTableRoute(const TableRoute& route);
sim::Result<TableRoute> DecodeTableRoute(std::string_view bytes);

std::string EncodeTableInfo(const TableInfo& info);
sim::Result<TableInfo> DecodeTableInfo(std::string_view bytes);

std::string EncodeTableRepart(const TableRepart& repart);
sim::Result<TableRepart> DecodeTableRepart(std::string_view bytes);

// Parses PartitionExpr::CanonicalText() output back into the expression.
sim::Result<PartitionExpr> DecodePartitionExpr(std::string_view canonical_text);

}  // namespace repartsim::model
