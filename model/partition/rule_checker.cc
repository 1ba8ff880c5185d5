#include "model/partition/rule.h"

namespace repartsim::model {

std::optional<std::string> CheckRule(const PartitionRule& rule, const TableSchema& schema,
                                     CheckMode mode) {
  (void)rule;
  (void)schema;
  (void)mode;
  return std::nullopt;  // replaced by the checkpoint checker
}

}  // namespace repartsim::model
