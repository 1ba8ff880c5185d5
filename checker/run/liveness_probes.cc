#include "checker/run/liveness_probes.h"

#include <algorithm>
#include <span>

#include "checker/check/probe_rows.h"
#include "model/meta/table_metadata.h"
#include "sim/assert.h"

namespace repartsim::run {

bool LivenessProbes::Start(const scenario::Scenario& s, model::Cluster& cluster, sim::SimTime now) {
  REPARTSIM_ASSERT(!started());
  s_ = &s;
  const model::TableSchema& schema = s.table.schema;
  const model::KvStore& kv = cluster.metasrv().kv();
  std::optional<model::TableRoute> route = model::ReadTableRoute(kv, s.table_id());
  std::optional<model::TableInfo> info = model::ReadTableInfo(kv, s.table_id());
  if (!route || !info) return false;
  // Probes test values the system once acknowledged ("writable again"): a value refused from
  // the start (e.g. a NULL no partition covers, refused by design) is not a liveness loss.
  // The fresh time index is above every row written, whatever its outcome. The rows are read
  // a write at a time (packed ones unpacked one by one), keeping the first acknowledged row
  // of each partition-key tuple, all ChooseProbeRows keeps.
  check::FirstRowsByTuple acked(schema, info->PartitionColumnNames());
  int64_t fresh = 0;
  for (const model::WriteRecord& w : cluster.history().writes) {
    if (w.table != s.table_id()) continue;
    cluster.history().WithRowsOf(w, [&](const std::vector<model::Row>& rows) {
      for (const model::Row& row : rows) {
        const model::Row* one = &row;
        fresh = std::max(fresh, check::FreshTimeIndex(schema, std::span(&one, 1)));
        if (w.status == model::WriteStatus::kAcked) acked.Add(row);
      }
    });
  }
  std::vector<const model::Row*> firsts;
  for (const model::Row& row : acked.rows()) firsts.push_back(&row);
  std::vector<check::ProbeRegion> regions;
  for (const model::RegionRoute& r : route->region_routes) {
    regions.push_back({r.region_id, r.partition_expr ? &*r.partition_expr : nullptr});
  }
  std::vector<model::Row> rows =
      check::ChooseProbeRows(schema, info->PartitionColumnNames(), firsts, regions, kProbesMax);
  if (rows.empty()) return false;
  base_ = fresh;
  first_write_id_ = cluster.history().writes.size() + 1;
  next_unseen_ = first_write_id_;
  const uint32_t frontends = cluster.config().frontend_count;
  REPARTSIM_ASSERT(frontends > 0);
  probes_.resize(rows.size());
  in_flight_.assign(rows.size(), 0);
  unfinished_ = rows.size();
  for (size_t i = 0; i < rows.size(); ++i) {
    probes_[i].row = std::move(rows[i]);
    probes_[i].frontend_index = static_cast<uint32_t>(i % frontends);
    Issue(i, cluster, now);
  }
  return true;
}

void LivenessProbes::Issue(size_t probe, model::Cluster& cluster, sim::SimTime at) {
  ProbeResult& p = probes_[probe];
  const int64_t time_index = base_ + static_cast<int64_t>(attempt_probe_.size());
  attempt_probe_.push_back(probe);
  p.row = check::WithTimeIndex(s_->table.schema, std::move(p.row), time_index);
  ++p.attempts;
  cluster.Schedule(
      at, model::InsertOp{p.frontend_index, s_->table_id(), {p.row}, model::WritePath::kRow});
}

void LivenessProbes::AfterStep(model::Cluster& cluster, sim::SimTime now) {
  if (!started() || done()) return;
  const auto& writes = cluster.history().writes;
  const size_t time_index = s_->table.schema.time_index;
  for (; next_unseen_ <= writes.size(); ++next_unseen_) {
    const model::WriteRecord& w = writes[next_unseen_ - 1];
    REPARTSIM_ASSERT_MSG(w.rows.size() == 1, "only probes write once the probes started");
    std::optional<int64_t> ts = check::TimeIndexOf(w.rows[0][time_index]);
    REPARTSIM_ASSERT(ts && *ts >= base_ &&
                     *ts - base_ < static_cast<int64_t>(attempt_probe_.size()));
    in_flight_[attempt_probe_[static_cast<size_t>(*ts - base_)]] = w.id;
  }
  for (size_t i = 0; i < probes_.size(); ++i) {
    if (in_flight_[i] == 0) continue;
    const model::WriteRecord& w = writes[in_flight_[i] - 1];
    if (w.status == model::WriteStatus::kPending) continue;
    in_flight_[i] = 0;
    ProbeResult& p = probes_[i];
    if (w.status == model::WriteStatus::kAcked) {
      p.acked = true;
      p.error.clear();
    } else {
      p.error = w.error.empty() ? model::WriteStatusName(w.status) : w.error.str();
      if (p.attempts < kAttemptsMax) {
        Issue(i, cluster, now + sim::Ms(kRetryDelayMs));
        continue;
      }
    }
    p.finished = true;
    --unfinished_;
  }
}

void LivenessProbes::Hash(sim::Hasher& h) const {
  h.Add(first_write_id_).Add(next_unseen_).Add(base_).Add(static_cast<uint64_t>(unfinished_));
  h.Add(static_cast<uint64_t>(probes_.size()));
  for (const ProbeResult& p : probes_) {
    h.Add(static_cast<uint64_t>(p.row.size()));
    for (const model::Value& v : p.row) v.Hash(h);
    h.Add(p.frontend_index).Add(p.attempts).Add(p.finished).Add(p.acked).Add(p.error);
  }
  h.Add(static_cast<uint64_t>(in_flight_.size()));
  for (uint64_t id : in_flight_) h.Add(id);
  h.Add(static_cast<uint64_t>(attempt_probe_.size()));
  for (size_t probe : attempt_probe_) h.Add(static_cast<uint64_t>(probe));
}

}  // namespace repartsim::run
