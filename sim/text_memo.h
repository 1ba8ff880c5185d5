// TextMemo: the text a pure function made of a value, kept so that an equal value is not
// serialized again (a procedure's Dump() of its persisted fields, a table route's encoding: a
// search serializes the same states in run after run, since every run replays the prefix it
// shares with the runs before it). Entries are kept by a caller-chosen key; a hit is taken only
// when the kept value equals the asking one, so a key two different values share costs a
// serialization, never a wrong text. Bounded: dropped all at once when full. Callers keep one
// per thread (thread_local); it never reaches a trace.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <utility>

namespace repartsim::sim {

template <class Value>
class TextMemo {
 public:
  static constexpr size_t kEntriesMax = 4096;

  // make() for `value` (everything make reads), or the text it gave before for an equal value.
  template <class MakeFn>
  std::string Get(uint64_t key, const Value& value, MakeFn make) {
    auto it = entries_.find(key);
    if (it != entries_.end() && it->second.first == value) return it->second.second;
    std::string text = make();
    if (entries_.size() >= kEntriesMax) entries_.clear();
    entries_.insert_or_assign(key, std::pair<Value, std::string>{value, text});
    return text;
  }

 private:
  std::map<uint64_t, std::pair<Value, std::string>> entries_;
};

}  // namespace repartsim::sim
