#include "model/metasrv/meta_procedure.h"

#include "model/meta/codec_memo.h"

namespace repartsim::model {

namespace {

// Calls f on the held body; bodies that lack a member get a default through the helpers below.
template <class F>
decltype(auto) Visit(MetaProcedure::Variant& v, F&& f) {
  return std::visit(std::forward<F>(f), v);
}
template <class F>
decltype(auto) Visit(const MetaProcedure::Variant& v, F&& f) {
  return std::visit(std::forward<F>(f), v);
}

template <class T>
concept HasRollback = requires(T& t, MetasrvEnv& env, const ProcedureView& view) {
  { t.Rollback(env, view) } -> std::same_as<Step>;
};

}  // namespace

std::string_view MetaProcedure::type() const {
  return Visit(body_, [](const auto& b) -> std::string_view { return b.kType; });
}

std::string MetaProcedure::state_name() const {
  return Visit(body_, [](const auto& b) { return b.state_name(); });
}

std::string MetaProcedure::Dump() const {
  return Visit(body_, [](const auto& b) { return b.Dump(); });
}

sim::Result<MetaProcedure> MetaProcedure::Load(std::string_view type, std::string_view dump) {
  // A pure function of its text, asked again for the same texts: every child procedure a
  // repartition spawns is loaded from its dump, in every run of a search.
  std::string key;
  key.reserve(type.size() + 1 + dump.size());
  key.append(type).append(1, '\n').append(dump);
  return MemoizedDecode<MetaProcedure>(key, [&](std::string_view) { return LoadJson(type, dump); });
}

sim::Result<MetaProcedure> MetaProcedure::LoadJson(std::string_view type, std::string_view dump) {
  if (type == CreateTableProcedure::kType) {
    sim::Result<CreateTableProcedure> body = CreateTableProcedure::Load(dump);
    if (!body.ok()) return body.error();
    return MetaProcedure(std::move(body).value());
  }
  if (type == RepartitionProcedure::kType) {
    sim::Result<RepartitionProcedure> body = RepartitionProcedure::Load(dump);
    if (!body.ok()) return body.error();
    return MetaProcedure(std::move(body).value());
  }
  if (type == RepartitionGroupProcedure::kType) {
    sim::Result<RepartitionGroupProcedure> body = RepartitionGroupProcedure::Load(dump);
    if (!body.ok()) return body.error();
    return MetaProcedure(std::move(body).value());
  }
  if (type == RegionMigrationProcedure::kType) {
    sim::Result<RegionMigrationProcedure> body = RegionMigrationProcedure::Load(dump);
    if (!body.ok()) return body.error();
    return MetaProcedure(std::move(body).value());
  }
  return sim::MakeError({}, "unknown procedure type '" + std::string(type) + "'");
}

Step MetaProcedure::Execute(MetasrvEnv& env, const ProcedureView& view) {
  return Visit(body_, [&](auto& b) { return b.Execute(env, view); });
}

Step MetaProcedure::Rollback(MetasrvEnv& env, const ProcedureView& view) {
  return Visit(body_, [&](auto& b) -> Step {
    if constexpr (HasRollback<std::decay_t<decltype(b)>>) {
      return b.Rollback(env, view);
    } else {
      return Step::Done();
    }
  });
}

bool MetaProcedure::rollback_supported() const {
  return Visit(body_, [](const auto& b) { return HasRollback<std::decay_t<decltype(b)>>; });
}

std::vector<LockKey> MetaProcedure::lock_keys() const {
  return Visit(body_, [](const auto& b) { return b.lock_keys(); });
}

void MetaProcedure::Fingerprint(sim::Hasher& h) const {
  h.Add(static_cast<uint64_t>(body_.index()));
  Visit(body_, [&](const auto& b) { b.Fingerprint(h); });
}

}  // namespace repartsim::model
