#include "model/cluster/fault_action.h"

#include <iterator>

namespace repartsim::model {

const char* FaultActionName(const FaultAction& action) {
  static constexpr const char* kNames[] = {"crash",   "restart",     "flush",        "partition",
                                           "heal",    "stale_cache", "message_rule", "expire_lease",
                                           "compact", "gc",          "migrate"};
  static_assert(std::variant_size_v<FaultAction> == std::size(kNames));
  return kNames[action.index()];
}

void HashFaultAction(sim::Hasher& h, const FaultAction& action) {
  if (const auto* crash = std::get_if<CrashNodeOp>(&action)) {
    h.Add(crash->node.value);
  } else if (const auto* restart = std::get_if<RestartNodeOp>(&action)) {
    h.Add(restart->node.value);
    if (restart->replay_failures != 0) h.Add(restart->replay_failures);
  } else if (const auto* flush = std::get_if<FlushOp>(&action)) {
    h.Add(flush->node.value).Add(flush->region.value);
    if (flush->every_region) h.Add(uint64_t{1});
  } else if (const auto* partition = std::get_if<PartitionOp>(&action)) {
    for (NodeId n : partition->side_a) h.Add(n.value);
    h.Add(uint64_t{0xffff});
    for (NodeId n : partition->side_b) h.Add(n.value);
    h.Add(partition->symmetric);
  } else if (const auto* stale = std::get_if<StaleCacheOp>(&action)) {
    h.Add(stale->frontend_index).Add(stale->table.value).Add(stale->ignore_invalidations);
  } else if (const auto* heal = std::get_if<HealOp>(&action)) {
    h.Add(heal->end_of_safety);
  } else if (const auto* rule = std::get_if<MessageRuleOp>(&action)) {
    HashMessageRule(h, rule->rule);
  } else if (const auto* expire = std::get_if<ExpireLeaseOp>(&action)) {
    h.Add(expire->node.value);
  } else if (const auto* compact = std::get_if<CompactOp>(&action)) {
    h.Add(compact->node.value).Add(compact->region.value).Add(compact->every_region);
  } else if (const auto* migrate = std::get_if<MigrateRegionOp>(&action)) {
    h.Add(migrate->region.value).Add(migrate->from.value).Add(migrate->to.value);
    h.Add(migrate->timeout_ms);
    if (migrate->frontend) h.Add(uint64_t{*migrate->frontend} + 1);
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
