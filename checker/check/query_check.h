// Query-result invariants, checked when a query completes, and INV-ACK at quiescence.
// A query's oracle diff maps onto invariants: missing rows and stale values -> INV-NOOMIT,
// duplicated rows -> INV-NODUP, phantoms and values the query could not see -> INV-NOPHANTOM.
// One Violation per invariant per query, listing every offending row. When the query
// overlapped a procedure and the scenario tolerates read anomalies (the real design does),
// INV-NOOMIT and INV-NODUP become READ-ANOMALY; phantoms never do.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "checker/check/check_at.h"
#include "checker/check/oracle.h"
#include "checker/check/violation.h"

namespace repartsim::check {

struct QueryCheckContext {
  CheckAt at;                        // where the query completed
  std::string query;                 // the query text, quoted in messages
  std::vector<std::string> regions;  // regions the query scanned, rendered
  bool overlapped_procedure = false;
  bool read_anomaly_tolerated = false;
};

// The invariant a diff entry breaks in a query result (before any READ-ANOMALY downgrade).
Invariant QueryInvariantOf(const DiffEntry& entry);

// Messages: "query `Q` omitted 2 rows acknowledged before step 10", "query `Q` returned
// 1 duplicated row", "query `Q` returned 1 phantom row"; READ-ANOMALY prefixes the original
// "INV-NODUP tolerated during a procedure: ". Rows are DiffEntry::ToText() lines.
std::vector<Violation> QueryViolations(const model::TableSchema& schema, const QueryDiff& diff,
                                       const QuerySpec& spec, const QueryCheckContext& context);

// Expect + Compare + QueryViolations. Errors only for a bad WHERE text.
Result<std::vector<Violation>> CheckQuery(Oracle& oracle, const QuerySpec& spec,
                                          const std::vector<model::Row>& actual,
                                          const QueryCheckContext& context);

// count(*): below the expected minimum -> INV-NOOMIT "query `Q` counted 3 rows, expected at
// least 4"; above the maximum -> INV-NODUP "query `Q` counted 5 rows, expected at most 4"
// (a surplus of rows is duplicates or phantoms; the count cannot tell which).
Result<std::optional<Violation>> CheckCountQuery(Oracle& oracle, const QuerySpec& spec,
                                                 uint64_t actual_count,
                                                 const QueryCheckContext& context);

// INV-ACK at quiescence over a full scan of the table (`rows`), as of `at.step`: every
// acknowledged row visible once with its last acknowledged value, maybe rows at most once.
// Missing, stale and duplicated rows -> INV-ACK ("3 acknowledged rows are missing at
// quiescence", "1 row shows a stale value at quiescence", "1 row is visible more than once
// at quiescence"); rows never written -> INV-NOPHANTOM ("1 phantom row is visible at
// quiescence").
std::vector<Violation> CheckAckAtQuiescence(Oracle& oracle, const std::vector<model::Row>& rows,
                                            CheckAt at);

}  // namespace repartsim::check
