// Memoized decoding of stored metadata. Decoding is a pure function of the bytes, and the
// metasrv decodes the same few values again and again (the table route and table info at
// every procedure step and heartbeat, in every run of a sweep or a search), each a JSON parse.
// The last values decoded are kept per thread, keyed by their bytes, and dropped all at once
// when there are too many. Only successful decodes are kept.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>  // lint: lookup-only

#include "sim/fingerprint.h"
#include "sim/result.h"

namespace repartsim::model {

struct BytesHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return sim::Hasher().Add(s).Finish(); }
};

// decode(bytes), or the value it gave for the same bytes before.
template <class T>
sim::Result<T> MemoizedDecode(std::string_view bytes,
                              sim::Result<T> (*decode)(std::string_view bytes)) {
  constexpr size_t kMemoMax = 1024;
  using Memo = std::unordered_map<std::string, T, BytesHash, std::equal_to<>>;  // lint: lookup-only
  thread_local Memo memo;
  auto it = memo.find(bytes);
  if (it != memo.end()) return it->second;
  sim::Result<T> value = decode(bytes);
  if (!value.ok()) return value;
  if (memo.size() >= kMemoMax) memo.clear();
  memo.emplace(std::string(bytes), value.value());
  return value;
}

}  // namespace repartsim::model
