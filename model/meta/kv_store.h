// The metasrv's durable key-value store (docs/protocol.md section 2.4): an ordered map from key
// bytes to value bytes with Get/Put/Delete, compare-and-put on the stored bytes, multi-key
// transactions (all compares first, then the success or failure ops, atomically) and prefix ranges.
// It is a plain value: copying it is a snapshot and Hash covers every entry in key order. Keys
// follow the real system (see meta_keys.h). Survives a metasrv crash (the caller keeps it).
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/fingerprint.h"

namespace repartsim::model {

// A compare of a transaction: the key must hold exactly `expected` (nullopt = absent).
struct KvCompare {
  std::string key;
  std::optional<std::string> expected;
};

struct KvOp {
  enum class Kind : uint8_t { kPut, kDelete };
  Kind kind = Kind::kPut;
  std::string key;
  std::string value;  // kPut only

  static KvOp Put(std::string key, std::string value) {
    return KvOp{Kind::kPut, std::move(key), std::move(value)};
  }
  static KvOp Delete(std::string key) { return KvOp{Kind::kDelete, std::move(key), {}}; }
};

struct KvTxn {
  std::vector<KvCompare> compares;
  std::vector<KvOp> on_success;  // applied iff every compare holds
  std::vector<KvOp> on_failure;  // applied iff some compare fails
};

struct KvTxnResult {
  bool succeeded = false;
  // The value of each compared key before any op ran, in compare order (nullopt = absent).
  std::vector<std::optional<std::string>> read;
};

struct KvCasResult {
  bool succeeded = false;
  // The value stored before the call (nullopt = absent): on failure, what differed.
  std::optional<std::string> previous;
};

class KvStore {
 public:
  std::optional<std::string> Get(std::string_view key) const;
  // Pointer to the stored bytes, or nullptr; valid until the next mutation.
  const std::string* Find(std::string_view key) const;
  bool Contains(std::string_view key) const { return Find(key) != nullptr; }
  void Put(std::string key, std::string value);
  // Returns true iff the key existed.
  bool Delete(std::string_view key);
  // Stores `value` iff the current value equals `expected` (nullopt = the key is absent).
  KvCasResult CompareAndPut(const std::string& key, const std::optional<std::string>& expected,
                            std::string value);
  KvTxnResult Txn(const KvTxn& txn);
  // Every entry whose key starts with `prefix`, in key order.
  std::vector<std::pair<std::string, std::string>> Range(std::string_view prefix) const;

  size_t size() const { return data_.size(); }
  const std::map<std::string, std::string, std::less<>>& entries() const { return data_; }

  // Counts the calls that may have changed an entry (puts, deletes, transaction ops), so an
  // observer can tell cheaply that nothing changed since it last looked. Not part of the
  // store's value: not hashed, not compared.
  uint64_t mutations() const { return mutations_; }

  void Hash(sim::Hasher& h) const;
  uint64_t Fingerprint() const;
  friend bool operator==(const KvStore& a, const KvStore& b) { return a.data_ == b.data_; }

 private:
  void Apply(const KvOp& op);

  std::map<std::string, std::string, std::less<>> data_;
  uint64_t mutations_ = 0;
};

}  // namespace repartsim::model
