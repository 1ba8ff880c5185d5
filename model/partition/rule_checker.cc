// The checkpoint checker of checker.rs, evaluated without materialising the cartesian
// product: columns are visited in name order (first column slowest, as MatrixGenerator does),
// each coordinate narrows a bitset of the atoms still possible, and a bitset already proven
// fine at a depth is not explored again (its sub-grid is identical). Returns the first
// failing checkpoint in the same order the real checker scans them, so messages match.
#include <algorithm>
#include <bit>
#include <map>
#include <set>

#include "model/partition/collider.h"
#include "model/partition/rule.h"

namespace repartsim::model {

namespace {

using Bits = std::vector<uint64_t>;

class CheckpointSearch {
 public:
  CheckpointSearch(const Collider& collider, bool exact) : c_(collider), exact_(exact) {
    size_t atom_count = c_.atoms().size();
    words_ = (atom_count + 63) / 64;
    uint32_t column_count = static_cast<uint32_t>(c_.columns().size());
    allowed_.resize(column_count);
    memo_.resize(column_count + 1);
    // Each atom allows an interval of a column (RangeOf) minus its NotEq points, so filling
    // the per-coordinate bitsets costs the intervals' lengths, not coordinates x atoms.
    for (uint32_t col = 0; col < column_count; ++col) {
      size_t coord_count = static_cast<size_t>(c_.MaxCoord(col) + 2);
      allowed_[col].assign(coord_count, Bits(words_, 0));
      for (size_t a = 0; a < atom_count; ++a) {
        const Atom& atom = c_.atoms()[a];
        uint64_t bit = uint64_t{1} << (a % 64);
        CoordRange r =
            c_.Constrains(atom, col) ? c_.RangeOf(atom, col) : CoordRange{-1, c_.MaxCoord(col)};
        for (int32_t coord = r.lo; coord <= r.hi; ++coord) {
          allowed_[col][static_cast<size_t>(coord + 1)][a / 64] |= bit;
        }
        for (const Nucleon& n : atom.nucleons) {
          if (n.column == col && n.op == CompareOp::kNotEq) {
            allowed_[col][static_cast<size_t>(n.coord + 1)][a / 64] &= ~bit;
          }
        }
      }
    }
    point_.assign(column_count, 0);
  }

  // nullopt when every checkpoint is covered exactly once.
  std::optional<std::string> Run() {
    Bits all(words_, 0);
    for (size_t a = 0; a < c_.atoms().size(); ++a) all[a / 64] |= uint64_t{1} << (a % 64);
    return Visit(0, all);
  }

 private:
  std::optional<std::string> Visit(uint32_t depth, const Bits& live) {
    if (depth == c_.columns().size()) {
      size_t count = CoverCount(live);
      if (count == 0) return Render() + "` is not covered";
      if (count > 1) return Render() + "` is overlapped";
      return std::nullopt;
    }
    Bits next(words_);
    for (int32_t coord = -1; coord <= c_.MaxCoord(depth); ++coord) {
      if (!c_.Realizable(depth, coord, exact_)) continue;
      const Bits& allowed = allowed_[depth][static_cast<size_t>(coord + 1)];
      bool any = false;
      for (size_t w = 0; w < words_; ++w) {
        next[w] = live[w] & allowed[w];
        any = any || next[w] != 0;
      }
      point_[depth] = coord;
      if (!any) {
        for (uint32_t d = depth + 1; d < c_.columns().size(); ++d) point_[d] = FirstCoord(d);
        return Render() + "` is not covered";
      }
      bool leaf = depth + 1 == c_.columns().size();  // leaves are cheaper than a lookup
      if (!leaf && memo_[depth + 1].count(next) != 0) continue;
      if (auto failure = Visit(depth + 1, next)) return failure;
      if (!leaf) memo_[depth + 1].insert(next);
    }
    return std::nullopt;
  }

  int32_t FirstCoord(uint32_t col) const {
    int32_t coord = -1;
    while (!c_.Realizable(col, coord, exact_)) ++coord;
    return coord;
  }

  size_t CoverCount(const Bits& live) const {
    if (!exact_) {
      size_t n = 0;
      for (uint64_t w : live) n += static_cast<size_t>(std::popcount(w));
      return n;
    }
    // Exact mode counts expressions: atoms of one expression may overlap each other.
    std::set<uint32_t> sources;
    for (size_t a = 0; a < c_.atoms().size(); ++a) {
      if ((live[a / 64] >> (a % 64)) & 1) sources.insert(c_.atoms()[a].source);
    }
    return sources.size();
  }

  std::string Render() const {
    std::string out = "Checkpoint `";
    for (uint32_t col = 0; col < c_.columns().size(); ++col) {
      if (col > 0) out += ", ";
      out += c_.RenderCoord(col, point_[col]);
    }
    return out;
  }

  const Collider& c_;
  bool exact_;
  size_t words_ = 0;
  std::vector<std::vector<Bits>> allowed_;  // [column][coord + 1] -> atoms allowing it
  std::vector<std::set<Bits>> memo_;        // [depth] -> live sets proven fine
  std::vector<int32_t> point_;
};

// checker.rs's uniqueness step: a BTreeMap keyed by nucleon list keeps the last atom per
// key; the first atom whose key maps to another expression names the duplicate. Duplicates
// inside one expression find no such atom and yield the real code's placeholder.
std::optional<std::string> FindDuplicate(const Collider& c, const PartitionRule& rule, bool exact) {
  std::map<std::vector<Nucleon>, uint32_t> last_source;
  for (const Atom& a : c.atoms()) last_source[a.nucleons] = a.source;
  if (last_source.size() == c.atoms().size()) return std::nullopt;
  for (const Atom& a : c.atoms()) {
    if (last_source[a.nucleons] != a.source) {
      return "Duplicate expr: " + rule.exprs[a.source].ToDebug();
    }
  }
  if (exact) return std::nullopt;
  return std::string(
      "Duplicate expr: PartitionExpr { lhs: Column(\"unknown\"), op: Eq, "
      "rhs: Column(\"expr\") }");
}

}  // namespace

std::optional<std::string> CheckRule(const PartitionRule& rule, const TableSchema& schema,
                                     CheckMode mode) {
  bool exact = mode == CheckMode::kExact;
  std::vector<const PartitionExpr*> exprs;
  for (const PartitionExpr& e : rule.exprs) exprs.push_back(&e);
  Result<Collider> collider = Collider::Make(exprs, &schema);
  if (!collider.ok()) return collider.error().message;
  const Collider& c = collider.value();
  if (auto dup = FindDuplicate(c, rule, exact)) return dup;
  if (c.columns().empty()) return std::nullopt;  // empty rule: valid
  return CheckpointSearch(c, exact).Run();
}

}  // namespace repartsim::model
