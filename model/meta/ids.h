// Strong id types of the cluster model (docs/protocol.md section 2.1). A RegionId packs the table
// id in the high 32 bits and the region number in the low 32 bits (table_id << 32 | region_number),
// as GreptimeDB's store-api RegionId does; region numbers are never reused (see TableRoute). All
// ids are plain values: totally ordered, hashable with sim::Hasher, printable.
#pragma once

#include <compare>
#include <cstdint>
#include <string>

#include "sim/fingerprint.h"

namespace repartsim::model {

struct TableId {
  uint32_t value = 0;
  friend constexpr auto operator<=>(TableId, TableId) = default;
  void Hash(sim::Hasher& h) const { h.Add(value); }
  std::string ToString() const { return std::to_string(value); }
};

struct RegionNumber {
  uint32_t value = 0;
  friend constexpr auto operator<=>(RegionNumber, RegionNumber) = default;
  void Hash(sim::Hasher& h) const { h.Add(value); }
  std::string ToString() const { return std::to_string(value); }
};

struct RegionId {
  uint64_t value = 0;

  static constexpr RegionId Of(TableId table, RegionNumber number) {
    return RegionId{(static_cast<uint64_t>(table.value) << 32) | number.value};
  }
  constexpr TableId table_id() const { return TableId{static_cast<uint32_t>(value >> 32)}; }
  constexpr RegionNumber region_number() const {
    return RegionNumber{static_cast<uint32_t>(value & 0xffffffffu)};
  }
  friend constexpr auto operator<=>(RegionId, RegionId) = default;
  void Hash(sim::Hasher& h) const { h.Add(value); }
  // The real system's Display form: "4398046511104(1024, 0)".
  std::string ToString() const;
};

struct NodeId {
  uint32_t value = 0;
  friend constexpr auto operator<=>(NodeId, NodeId) = default;
  void Hash(sim::Hasher& h) const { h.Add(value); }
  std::string ToString() const { return std::to_string(value); }
};

inline std::string RegionId::ToString() const {
  std::string out = std::to_string(value);
  out += '(';
  out += std::to_string(table_id().value);
  out += ", ";
  out += std::to_string(region_number().value);
  out += ')';
  return out;
}

static_assert(RegionId::Of(TableId{1024}, RegionNumber{0}).value == 4398046511104ULL);
static_assert(RegionId::Of(TableId{1024}, RegionNumber{7}).region_number().value == 7);

}  // namespace repartsim::model
