#include "model/node/client_statement.h"

#include <iterator>

#include "model/node/message.h"

namespace repartsim::model {

const char* StatementName(const ClientStatement& statement) {
  static constexpr const char* kNames[] = {"insert", "query", "create_table", "repartition"};
  static_assert(std::variant_size_v<ClientStatement> == std::size(kNames));
  return kNames[statement.index()];
}

void HashStatement(sim::Hasher& h, const ClientStatement& statement) {
  if (const auto* insert = std::get_if<InsertOp>(&statement)) {
    h.Add(insert->frontend_index).Add(insert->table.value).Add(static_cast<uint64_t>(insert->path));
    for (const Row& row : insert->rows) HashRow(h, row);
  } else if (const auto* query = std::get_if<QueryOp>(&statement)) {
    h.Add(query->frontend_index).Add(query->table.value).Add(query->sql);
  } else if (const auto* create = std::get_if<CreateTableOp>(&statement)) {
    create->info.Hash(h);
    create->route.Hash(h);
  } else if (const auto* repartition = std::get_if<RepartitionOp>(&statement)) {
    h.Add(repartition->frontend_index).Add(repartition->table.value).Add(repartition->sql);
  }
}

}  // namespace repartsim::model
