// A memo for a procedure's Dump(): the serialized state is a pure function of the persisted
// fields, and a search (repartsim explore) serializes the same states in run after run, since
// every run replays the prefix it shares with the runs before it (the fingerprint of a state
// hashes the stored records). The memo keeps, per thread, the last dumps by a caller-chosen
// key; a hit is taken only when the kept fields equal the asking ones, so a key that two
// different states share costs a dump, never a wrong one. Bounded: dropped all at once when
// full.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <utility>

namespace repartsim::model {

template <class Fields>
class DumpMemo {
 public:
  static constexpr size_t kEntriesMax = 4096;

  // dump() for `fields` (the fields it reads), or the text it gave before for equal fields.
  template <class DumpFn>
  std::string Get(uint64_t key, const Fields& fields, DumpFn dump) {
    auto it = entries_.find(key);
    if (it != entries_.end() && it->second.first == fields) return it->second.second;
    std::string text = dump();
    if (entries_.size() >= kEntriesMax) entries_.clear();
    entries_.insert_or_assign(key, std::pair<Fields, std::string>{fields, text});
    return text;
  }

 private:
  std::map<uint64_t, std::pair<Fields, std::string>> entries_;
};

}  // namespace repartsim::model
