// Size limits of the SQL front end. Input beyond them is a located error (exit 64), never a
// crash: the parser and every tree walk downstream (pruning, evaluation, printing) recurse
// over expression trees, so the tree depth must stay far below what a thread stack holds.
// An AND/OR chain is a left-deep tree (`a OR b OR c` is `(a OR b) OR c`), so its length
// counts towards the depth of every walk; parentheses and NOT nest. docs/limits.md gives the
// memory these limits allow.
#pragma once

#include <cstddef>

namespace repartsim::model::sql {

// Bytes of SQL text given to one Tokenize / ParseStatements / ParsePredicate call.
inline constexpr size_t kSqlTextBytesMax = 1 << 20;
// Nesting of parentheses and NOT in one expression.
inline constexpr size_t kSqlNestingDepthMax = 128;
// AND/OR operators in one expression (a partition expression or a WHERE predicate).
inline constexpr size_t kSqlOperatorsMax = 4096;
// Values in one IN list, rows in one INSERT, columns of a table, partitions of a rule.
inline constexpr size_t kSqlInListValuesMax = 100000;
inline constexpr size_t kSqlInsertRowsMax = 10000;
inline constexpr size_t kSqlColumnsMax = 1024;
inline constexpr size_t kSqlPartitionsMax = 1024;

}  // namespace repartsim::model::sql
