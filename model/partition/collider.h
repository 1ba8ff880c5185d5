// The collider of src/partition/src/collider.rs: it normalises every literal of a set of
// expressions per column (sorted, deduplicated, i-th value -> coordinate 2*i) and splits each
// expression on OR into atoms (AND-lists of nucleons `column op coordinate`, sorted). Odd
// coordinates are the points strictly between two literals (-1 below the first, 2k-1 above the
// last), so every check runs in integer arithmetic, with the dense-order semantics of the
// real float matrix. Realizable() adds the exact mode's knowledge of discrete domains.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/partition/expr.h"
#include "model/partition/schema.h"

namespace repartsim::model {

struct Nucleon {
  uint32_t column = 0;  // index into Collider::columns()
  CompareOp op = CompareOp::kEq;
  int32_t coord = 0;  // 2 * index of the literal in the column's values

  friend auto operator<=>(const Nucleon&, const Nucleon&) = default;
};

struct Atom {
  std::vector<Nucleon> nucleons;  // sorted
  uint32_t source = 0;            // index of the expression it came from
};

struct ColliderColumn {
  std::string name;
  std::vector<Value> values;  // sorted (NULL first), deduplicated
  bool discrete = false;      // integer, boolean or timestamp domain
};

// Inclusive coordinate range of one column inside one atom; empty when lo > hi.
struct CoordRange {
  int32_t lo;
  int32_t hi;
};

class Collider {
 public:
  // Columns are sorted by name. `schema` (optional) decides which columns are discrete; else
  // the literal types do. Errors: mixed literal types on a column ("cannot compare ..."), and
  // the real collider's shape errors ("Unexpected: Conjunction operation Or should be handled
  // elsewhere", "Invalid partition expr: ...").
  static Result<Collider> Make(const std::vector<const PartitionExpr*>& exprs,
                               const TableSchema* schema);

  const std::vector<ColliderColumn>& columns() const { return columns_; }
  const std::vector<Atom>& atoms() const { return atoms_; }

  // Coordinates of column c run from -1 to MaxCoord(c) = 2k-1.
  int32_t MaxCoord(uint32_t c) const;
  // True iff some value of the column's domain sits at coordinate `coord`. Always true in
  // dense mode; in exact mode a gap between adjacent integers (or below the domain minimum,
  // above its maximum, below NULL) has none.
  bool Realizable(uint32_t c, int32_t coord, bool exact) const;
  // Range of column c allowed by atom a (NotEq ignored, as overlap.rs does).
  CoordRange RangeOf(const Atom& a, uint32_t c) const;
  bool Constrains(const Atom& a, uint32_t c) const;
  // "a=10", "a<10", "a>30", "10<a<20", as checker.rs remap_checkpoint renders them.
  std::string RenderCoord(uint32_t c, int32_t coord) const;

 private:
  std::vector<ColliderColumn> columns_;
  std::vector<Atom> atoms_;
};

// True iff nucleon `n` holds at coordinate `coord` of its column.
bool NucleonHolds(const Nucleon& n, int32_t coord);

}  // namespace repartsim::model
