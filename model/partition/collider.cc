#include "model/partition/collider.h"

#include <algorithm>
#include <map>

namespace repartsim::model {

namespace {

// Splits `e` on OR into AND-chains of leaves (the only shape the collider accepts).
sim::Status CollectAtoms(const PartitionExpr& e,
                         std::vector<std::vector<const PartitionExpr*>>& out,
                         std::vector<const PartitionExpr*>* conj) {
  switch (e.kind()) {
    case PartitionExpr::Kind::kLeaf:
      if (conj == nullptr) {
        out.push_back({&e});
      } else {
        conj->push_back(&e);
      }
      return sim::Ok{};
    case PartitionExpr::Kind::kOr:
      if (conj != nullptr) {
        return sim::MakeError({},
                              "Unexpected: Conjunction operation Or should be handled "
                              "elsewhere");
      }
      if (auto s = CollectAtoms(e.lhs(), out, nullptr); !s.ok()) return s;
      return CollectAtoms(e.rhs(), out, nullptr);
    case PartitionExpr::Kind::kAnd: {
      if (conj != nullptr) {
        if (auto s = CollectAtoms(e.lhs(), out, conj); !s.ok()) return s;
        return CollectAtoms(e.rhs(), out, conj);
      }
      std::vector<const PartitionExpr*> chain;
      if (auto s = CollectAtoms(e.lhs(), out, &chain); !s.ok()) return s;
      if (auto s = CollectAtoms(e.rhs(), out, &chain); !s.ok()) return s;
      out.push_back(std::move(chain));
      return sim::Ok{};
    }
  }
  REPARTSIM_UNREACHABLE();
}

bool DiscreteValue(const Value& v) {
  ValueType t = v.type();
  return t == ValueType::kInt64 || t == ValueType::kUInt64 || t == ValueType::kBool ||
         t == ValueType::kTimestamp;
}

// True iff no value of a discrete domain lies strictly between a and b (a < b, same type).
bool Adjacent(const Value& a, const Value& b) {
  switch (a.type()) {
    case ValueType::kBool:
      return true;
    case ValueType::kInt64:
      return b.as_int() - static_cast<__int128>(a.as_int()) == 1;
    case ValueType::kUInt64:
      return b.as_uint() - a.as_uint() == 1;
    case ValueType::kTimestamp:
      return b.as_timestamp_ms() - static_cast<__int128>(a.as_timestamp_ms()) == 1;
    default:
      return false;
  }
}

bool IsDomainMin(const Value& v) {
  switch (v.type()) {
    case ValueType::kNull:
      return true;  // nothing sorts below NULL
    case ValueType::kBool:
      return !v.as_bool();
    case ValueType::kInt64:
      return v.as_int() == INT64_MIN;
    case ValueType::kUInt64:
      return v.as_uint() == 0;
    case ValueType::kTimestamp:
      return v.as_timestamp_ms() == INT64_MIN;
    default:
      return false;
  }
}

bool IsDomainMax(const Value& v) {
  switch (v.type()) {
    case ValueType::kBool:
      return v.as_bool();
    case ValueType::kInt64:
      return v.as_int() == INT64_MAX;
    case ValueType::kUInt64:
      return v.as_uint() == UINT64_MAX;
    case ValueType::kTimestamp:
      return v.as_timestamp_ms() == INT64_MAX;
    default:
      return false;
  }
}

}  // namespace

Result<Collider> Collider::Make(const std::vector<const PartitionExpr*>& exprs,
                                const TableSchema* schema) {
  std::vector<std::vector<const PartitionExpr*>> chains;
  std::vector<uint32_t> sources;
  for (size_t i = 0; i < exprs.size(); ++i) {
    size_t before = chains.size();
    if (auto s = CollectAtoms(*exprs[i], chains, nullptr); !s.ok()) return s.error();
    sources.resize(chains.size(), static_cast<uint32_t>(i));
    REPARTSIM_ASSERT(chains.size() > before);
  }
  std::map<std::string, std::vector<Value>> by_column;
  for (const auto& chain : chains) {
    for (const PartitionExpr* leaf : chain) by_column[leaf->column()].push_back(leaf->value());
  }
  Collider c;
  std::map<std::string, uint32_t> column_index;
  for (auto& [name, values] : by_column) {
    const Value* first = nullptr;
    for (const Value& v : values) {
      if (v.is_null()) continue;
      if (first == nullptr) first = &v;
      Result<int> cmp = CompareValues(*first, v);
      if (!cmp.ok()) return cmp.error();
    }
    std::sort(values.begin(), values.end(),
              [](const Value& a, const Value& b) { return CompareSameType(a, b) < 0; });
    values.erase(std::unique(values.begin(), values.end()), values.end());
    ColliderColumn col{name, std::move(values), false};
    std::optional<size_t> schema_index;
    if (schema != nullptr) schema_index = schema->FindColumn(name);
    if (schema_index.has_value()) {
      col.discrete = IsDiscrete(schema->columns[*schema_index].type);
    } else {
      col.discrete = !col.values.empty() && DiscreteValue(col.values.back());
    }
    column_index[name] = static_cast<uint32_t>(c.columns_.size());
    c.columns_.push_back(std::move(col));
  }
  for (size_t a = 0; a < chains.size(); ++a) {
    Atom atom;
    atom.source = sources[a];
    for (const PartitionExpr* leaf : chains[a]) {
      uint32_t ci = column_index.at(leaf->column());
      const auto& vals = c.columns_[ci].values;
      auto it = std::lower_bound(
          vals.begin(), vals.end(), leaf->value(),
          [](const Value& x, const Value& y) { return CompareSameType(x, y) < 0; });
      REPARTSIM_ASSERT(it != vals.end());
      atom.nucleons.push_back({ci, leaf->op(), static_cast<int32_t>(2 * (it - vals.begin()))});
    }
    std::sort(atom.nucleons.begin(), atom.nucleons.end());
    c.atoms_.push_back(std::move(atom));
  }
  return c;
}

int32_t Collider::MaxCoord(uint32_t c) const {
  return static_cast<int32_t>(2 * columns_[c].values.size()) - 1;
}

bool Collider::Realizable(uint32_t c, int32_t coord, bool exact) const {
  if (!exact || coord % 2 == 0) return true;
  const ColliderColumn& col = columns_[c];
  if (coord == -1)
    return !(col.values.front().is_null() || (col.discrete && IsDomainMin(col.values.front())));
  size_t i = static_cast<size_t>(coord / 2);
  if (i + 1 >= col.values.size()) return !(col.discrete && IsDomainMax(col.values.back()));
  const Value& lo = col.values[i];
  if (lo.is_null()) return !(col.discrete && IsDomainMin(col.values[i + 1]));
  return !(col.discrete && Adjacent(lo, col.values[i + 1]));
}

bool NucleonHolds(const Nucleon& n, int32_t coord) {
  switch (n.op) {
    case CompareOp::kEq:
      return coord == n.coord;
    case CompareOp::kNotEq:
      return coord != n.coord;
    case CompareOp::kLt:
      return coord < n.coord;
    case CompareOp::kLtEq:
      return coord <= n.coord;
    case CompareOp::kGt:
      return coord > n.coord;
    case CompareOp::kGtEq:
      return coord >= n.coord;
  }
  REPARTSIM_UNREACHABLE();
}

CoordRange Collider::RangeOf(const Atom& a, uint32_t c) const {
  CoordRange r{-1, MaxCoord(c)};
  for (const Nucleon& n : a.nucleons) {
    if (n.column != c) continue;
    switch (n.op) {
      case CompareOp::kEq:
        r.lo = std::max(r.lo, n.coord);
        r.hi = std::min(r.hi, n.coord);
        break;
      case CompareOp::kLt:
        r.hi = std::min(r.hi, n.coord - 1);
        break;
      case CompareOp::kLtEq:
        r.hi = std::min(r.hi, n.coord);
        break;
      case CompareOp::kGt:
        r.lo = std::max(r.lo, n.coord + 1);
        break;
      case CompareOp::kGtEq:
        r.lo = std::max(r.lo, n.coord);
        break;
      case CompareOp::kNotEq:
        break;
    }
  }
  return r;
}

bool Collider::Constrains(const Atom& a, uint32_t c) const {
  for (const Nucleon& n : a.nucleons) {
    if (n.column == c) return true;
  }
  return false;
}

std::string Collider::RenderCoord(uint32_t c, int32_t coord) const {
  const ColliderColumn& col = columns_[c];
  if (coord % 2 == 0) return col.name + "=" + col.values[coord / 2].ToDisplay();
  if (coord == -1) return col.name + "<" + col.values.front().ToDisplay();
  size_t i = static_cast<size_t>(coord / 2);
  if (i + 1 >= col.values.size()) return col.name + ">" + col.values.back().ToDisplay();
  return col.values[i].ToDisplay() + "<" + col.name + "<" + col.values[i + 1].ToDisplay();
}

}  // namespace repartsim::model
