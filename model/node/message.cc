#include "model/node/message.h"

#include <iterator>

#include "sim/assert.h"

namespace repartsim::model {

namespace {

template <class... Ts>
struct Overloaded : Ts... {
  using Ts::operator()...;
};
template <class... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;

void HashExpr(sim::Hasher& h, const std::optional<PartitionExpr>& expr) {
  h.Add(ExprVersion(expr ? &*expr : nullptr));
}

void HashRegionOp(sim::Hasher& h, const RegionOp& op) {
  h.Add(static_cast<uint64_t>(op.index()));
  std::visit(Overloaded{
                 [&](const CreateRegionOp& o) {
                   HashExpr(h, o.expr);
                   h.Add(o.awaiting_apply);
                 },
                 [&](const DropRegionOp&) {},
                 [&](const FlushRegionOp&) {},
                 [&](const EnterStagingOp& o) { o.directive.Hash(h); },
                 [&](const RemapManifestOp& o) {
                   for (RegionId r : o.inputs) r.Hash(h);
                   for (const auto& [src, dsts] : o.mapping) {
                     src.Hash(h);
                     for (RegionId d : dsts) d.Hash(h);
                   }
                   for (const auto& [dst, expr] : o.target_exprs) {
                     dst.Hash(h);
                     HashExpr(h, expr);
                   }
                 },
                 [&](const ApplyStagingManifestOp& o) {
                   HashExpr(h, o.expr);
                   o.central.Hash(h);
                 },
                 [&](const OpenRegionOp& o) { h.Add(o.skip_wal_replay); },
                 [&](const DowngradeRegionOp&) {},
                 [&](const UpgradeRegionOp& o) {
                   h.Add(o.last_entry_id.has_value());
                   if (o.last_entry_id) h.Add(*o.last_entry_id);
                 },
                 [&](const CloseRegionOp&) {},
             },
             op);
}

constexpr const char* kRegionOpNames[] = {
    "CreateRegion",         "DropRegion", "FlushRegion",     "EnterStaging",  "RemapManifest",
    "ApplyStagingManifest", "OpenRegion", "DowngradeRegion", "UpgradeRegion", "CloseRegion"};
static_assert(std::variant_size_v<RegionOp> == std::size(kRegionOpNames));

constexpr const char* kMessageKindNames[] = {
    "RouteRequest",  "RouteReply",     "InvalidateCache", "InvalidateAck", "WriteRequest",
    "WriteReply",    "ScanRequest",    "ScanResponse",    "Heartbeat",     "HeartbeatReply",
    "RegionRequest", "RegionResponse", "DdlSubmit",       "DdlReply"};
static_assert(std::variant_size_v<MessageBody> == std::size(kMessageKindNames));

}  // namespace

const char* RegionOpName(const RegionOp& op) { return kRegionOpNames[op.index()]; }

bool IsMailboxOp(const RegionOp& op) {
  return !std::holds_alternative<CreateRegionOp>(op) && !std::holds_alternative<DropRegionOp>(op);
}

sim::Channel ChannelOf(const Message& message) {
  return std::visit(Overloaded{
                        [](const Heartbeat&) { return sim::Channel::kStream; },
                        [](const HeartbeatReply&) { return sim::Channel::kStream; },
                        [](const InvalidateCache&) { return sim::Channel::kStream; },
                        [](const InvalidateAck&) { return sim::Channel::kStream; },
                        [](const RegionRequest& m) {
                          return IsMailboxOp(m.op()) ? sim::Channel::kStream : sim::Channel::kCall;
                        },
                        [](const RegionResponse& m) {
                          return m.mailbox ? sim::Channel::kStream : sim::Channel::kCall;
                        },
                        [](const auto&) { return sim::Channel::kCall; },
                    },
                    message.body);
}

bool IsStreamKind(std::string_view kind) {
  for (std::string_view k : {"Heartbeat", "HeartbeatReply", "InvalidateCache", "InvalidateAck",
                             "FlushRegion", "EnterStaging", "RemapManifest", "ApplyStagingManifest",
                             "OpenRegion", "DowngradeRegion", "UpgradeRegion", "CloseRegion"}) {
    if (kind == k) return true;
  }
  return false;
}

const char* MessageKindName(const Message& message) {
  return kMessageKindNames[message.body.index()];
}

bool IsMessageKindName(std::string_view kind) {
  for (const char* name : kMessageKindNames) {
    if (kind == name) return true;
  }
  for (const char* name : kRegionOpNames) {
    if (kind == name) return true;
  }
  return false;
}

std::string MessageKindList() {
  std::string out;
  for (const char* name : kMessageKindNames) {
    if (!out.empty()) out += ", ";
    out += name;
  }
  for (const char* name : kRegionOpNames) {
    out += ", ";
    out += name;
  }
  return out;
}

void HashRow(sim::Hasher& h, const Row& row) {
  h.Add(static_cast<uint64_t>(row.size()));
  for (const Value& v : row) v.Hash(h);
}

void HashRepartitionTask(sim::Hasher& h, const RepartitionTask& t) {
  t.info.Hash(h);
  h.Add(static_cast<uint64_t>(t.kind)).Add(t.target_columns.has_value());
  if (t.target_columns) {
    h.Add(static_cast<uint64_t>(t.target_columns->size()));
    for (const std::string& c : *t.target_columns) h.Add(c);
  }
  h.Add(static_cast<uint64_t>(t.from.size()));
  for (const PartitionExpr& e : t.from) h.Add(ExprVersion(&e));
  h.Add(static_cast<uint64_t>(t.to.size()));
  for (const PartitionExpr& e : t.to) h.Add(ExprVersion(&e));
  h.Add(t.timeout_ms);
}

void HashMessage(sim::Hasher& h, const Message& message) {
  h.Add(static_cast<uint64_t>(message.body.index()));
  std::visit(
      Overloaded{
          [&](const RouteRequest& m) { h.Add(m.corr).Add(m.table.value); },
          [&](const RouteReply& m) {
            h.Add(m.corr).Add(m.table.value).Add(m.found).Add(m.epoch);
            if (m.found) {
              m.route.Hash(h);
              m.info.Hash(h);
            }
          },
          [&](const InvalidateCache& m) { h.Add(m.table.value).Add(m.epoch); },
          [&](const InvalidateAck& m) { h.Add(m.table.value).Add(m.epoch); },
          [&](const WriteRequest& m) {
            h.Add(m.corr);
            for (const RegionWrite& w : m.writes) {
              w.region.Hash(h);
              h.Add(w.version.has_value()).Add(w.version.value_or(0));
              h.Add(static_cast<uint64_t>(w.rows.size()));
              for (const Row& row : w.rows) HashRow(h, row);
            }
          },
          [&](const WriteReply& m) {
            h.Add(m.corr);
            for (const RegionWriteResult& r : m.results) {
              r.region.Hash(h);
              h.Add(static_cast<uint64_t>(r.code));
            }
          },
          [&](const ScanRequest& m) {
            h.Add(m.corr);
            m.region.Hash(h);
            h.Add(m.planned_version.has_value()).Add(m.planned_version.value_or(0));
            if (m.route_version != 0) h.Add(m.route_version);  // only under the rule
            if (m.count_only) h.Add(uint64_t{1});
          },
          [&](const ScanResponse& m) {
            h.Add(m.corr);
            m.region.Hash(h);
            h.Add(static_cast<uint64_t>(m.code));
            h.Add(static_cast<uint64_t>(m.rows.size()));
            for (const Row& row : m.rows) HashRow(h, row);
            if (m.count != 0) h.Add(m.count);
          },
          [&](const Heartbeat& m) {
            h.Add(m.sent_at.ms);
            for (RegionId r : m.regions) r.Hash(h);
          },
          [&](const HeartbeatReply& m) {
            h.Add(m.lease_deadline.ms);
            for (const RegionLease& l : m.leases) {
              l.region.Hash(h);
              h.Add(static_cast<uint64_t>(l.role)).Add(l.route_version);
            }
            for (RegionId r : m.closeable) r.Hash(h);
          },
          [&](const RegionRequest& m) {
            h.Add(m.corr);
            for (const RegionInstruction& item : m.items) {
              item.region.Hash(h);
              HashRegionOp(h, item.op);
            }
            h.Add(m.route_version);
          },
          [&](const RegionResponse& m) {
            h.Add(m.corr);
            for (const RegionResult& r : m.results) {
              r.region.Hash(h);
              h.Add(static_cast<uint64_t>(r.code));
              if (r.last_entry_id != 0) h.Add(r.last_entry_id);  // downgrade replies only
            }
            h.Add(m.mailbox);
          },
          [&](const DdlSubmit& m) {
            h.Add(m.corr).Add(m.ddl).Add(static_cast<uint64_t>(m.task.index()));
            if (const auto* t = std::get_if<CreateTableTask>(&m.task)) {
              t->info.Hash(h);
              t->route.Hash(h);
              return;
            }
            HashRepartitionTask(h, std::get<RepartitionTask>(m.task));
          },
          [&](const DdlReply& m) {
            h.Add(m.corr).Add(static_cast<uint64_t>(m.outcome)).Add(m.procedure).Add(m.error);
          },
      },
      message.body);
}

}  // namespace repartsim::model
