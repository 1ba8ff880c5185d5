#include "model/meta/kv_store.h"

#include "sim/assert.h"

namespace repartsim::model {

std::optional<std::string> KvStore::Get(std::string_view key) const {
  const std::string* value = Find(key);
  if (value == nullptr) return std::nullopt;
  return *value;
}

const std::string* KvStore::Find(std::string_view key) const {
  auto it = data_.find(key);
  return it == data_.end() ? nullptr : &it->second;
}

void KvStore::Put(std::string key, std::string value) {
  ++mutations_;
  data_.insert_or_assign(std::move(key), std::move(value));
}

bool KvStore::Delete(std::string_view key) {
  auto it = data_.find(key);
  if (it == data_.end()) return false;
  ++mutations_;
  data_.erase(it);
  return true;
}

KvCasResult KvStore::CompareAndPut(const std::string& key,
                                   const std::optional<std::string>& expected, std::string value) {
  KvCasResult result;
  result.previous = Get(key);
  result.succeeded = result.previous == expected;
  if (result.succeeded) Put(key, std::move(value));
  return result;
}

void KvStore::Apply(const KvOp& op) {
  switch (op.kind) {
    case KvOp::Kind::kPut:
      ++mutations_;
      data_.insert_or_assign(op.key, op.value);
      return;
    case KvOp::Kind::kDelete:
      Delete(op.key);
      return;
  }
  REPARTSIM_UNREACHABLE();
}

KvTxnResult KvStore::Txn(const KvTxn& txn) {
  KvTxnResult result;
  result.read.reserve(txn.compares.size());
  result.succeeded = true;
  for (const KvCompare& compare : txn.compares) {
    result.read.push_back(Get(compare.key));
    if (result.read.back() != compare.expected) result.succeeded = false;
  }
  // Every compare is evaluated before any op runs, so the ops see one consistent state.
  const std::vector<KvOp>& ops = result.succeeded ? txn.on_success : txn.on_failure;
  for (const KvOp& op : ops) Apply(op);
  REPARTSIM_ASSERT(result.read.size() == txn.compares.size());
  return result;
}

std::vector<std::pair<std::string, std::string>> KvStore::Range(std::string_view prefix) const {
  std::vector<std::pair<std::string, std::string>> out;
  for (auto it = data_.lower_bound(prefix); it != data_.end(); ++it) {
    if (it->first.compare(0, prefix.size(), prefix) != 0) break;
    out.emplace_back(it->first, it->second);
  }
  return out;
}

void KvStore::Hash(sim::Hasher& h) const {
  h.Add(static_cast<uint64_t>(data_.size()));
  for (const auto& [key, value] : data_) {
    h.Add(std::string_view(key));
    h.Add(std::string_view(value));
  }
}

uint64_t KvStore::Fingerprint() const {
  sim::Hasher h;
  Hash(h);
  return h.Finish();
}

}  // namespace repartsim::model
