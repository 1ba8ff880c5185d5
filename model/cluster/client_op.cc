#include "model/cluster/client_op.h"

#include <iterator>

#include "model/cluster/message.h"

namespace repartsim::model {

const char* ClientOpName(const ClientOp& op) {
  static constexpr const char* kNames[] = {"insert",  "query",     "create_table", "repartition",
                                           "crash",   "restart",   "flush",
                                           "partition", "heal",    "stale_cache",
                                           "message_rule", "expire_lease"};
  static_assert(std::variant_size_v<ClientOp> == std::size(kNames));
  return kNames[op.index()];
}

void HashClientOp(sim::Hasher& h, const ClientOp& op) {
  h.Add(static_cast<uint64_t>(op.index()));
  if (const auto* insert = std::get_if<InsertOp>(&op)) {
    h.Add(insert->frontend_index).Add(insert->table.value).Add(insert->bulk);
    for (const Row& row : insert->rows) HashRow(h, row);
  } else if (const auto* query = std::get_if<QueryOp>(&op)) {
    h.Add(query->frontend_index).Add(query->table.value).Add(query->sql);
  } else if (const auto* create = std::get_if<CreateTableOp>(&op)) {
    create->info.Hash(h);
    create->route.Hash(h);
  } else if (const auto* repartition = std::get_if<RepartitionOp>(&op)) {
    h.Add(repartition->frontend_index).Add(repartition->table.value).Add(repartition->sql);
  } else if (const auto* crash = std::get_if<CrashNodeOp>(&op)) {
    h.Add(crash->node.value);
  } else if (const auto* restart = std::get_if<RestartNodeOp>(&op)) {
    h.Add(restart->node.value);
  } else if (const auto* flush = std::get_if<FlushOp>(&op)) {
    h.Add(flush->node.value).Add(flush->region.value);
  } else if (const auto* partition = std::get_if<PartitionOp>(&op)) {
    for (NodeId n : partition->side_a) h.Add(n.value);
    h.Add(uint64_t{0xffff});
    for (NodeId n : partition->side_b) h.Add(n.value);
    h.Add(partition->symmetric);
  } else if (const auto* stale = std::get_if<StaleCacheOp>(&op)) {
    h.Add(stale->frontend_index).Add(stale->table.value).Add(stale->ignore_invalidations);
  } else if (const auto* heal = std::get_if<HealOp>(&op)) {
    h.Add(heal->end_of_safety);
  } else if (const auto* rule = std::get_if<MessageRuleOp>(&op)) {
    HashMessageRule(h, rule->rule);
  } else if (const auto* expire = std::get_if<ExpireLeaseOp>(&op)) {
    h.Add(expire->node.value);
  }
}

const char* MessageActionName(MessageAction action) {
  static constexpr const char* kNames[] = {"drop", "delay", "duplicate", "hold", "reorder"};
  return kNames[static_cast<size_t>(action)];
}

void HashMessageRule(sim::Hasher& h, const MessageRule& rule) {
  h.Add(static_cast<uint64_t>(rule.action)).Add(rule.kind);
  h.Add(rule.from ? uint64_t{rule.from->value} : ~uint64_t{0});
  h.Add(rule.to ? uint64_t{rule.to->value} : ~uint64_t{0});
  h.Add(rule.count).Add(rule.delay.ms).Add(rule.until_state);
}

}  // namespace repartsim::model
