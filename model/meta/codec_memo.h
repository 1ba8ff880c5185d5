// Memoized encoding and decoding of stored metadata. Both are pure functions, and the metasrv
// asks for the same few values again and again (the table route and table info at every
// procedure step and heartbeat, and in every procedure dump that carries them, in every run of
// a sweep or a search), each a JSON parse or dump. The last answers are kept per thread and
// dropped all at once when there are too many.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>  // lint: lookup-only

#include "sim/fingerprint.h"
#include "sim/result.h"
#include "sim/text_memo.h"

namespace repartsim::model {

struct BytesHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return sim::Hasher().Add(s).Finish(); }
};

constexpr size_t kCodecMemoMax = 1024;

// decode(bytes) (a sim::Result<T>), or the value it gave for the same bytes before (errors
// are not kept). One memo per T and decode function.
template <class T, class DecodeFn>
sim::Result<T> MemoizedDecode(std::string_view bytes, DecodeFn decode) {
  using Memo = std::unordered_map<std::string, T, BytesHash, std::equal_to<>>;  // lint: lookup-only
  thread_local Memo memo;
  auto it = memo.find(bytes);
  if (it != memo.end()) return it->second;
  sim::Result<T> value = decode(bytes);
  if (!value.ok()) return value;
  if (memo.size() >= kCodecMemoMax) memo.clear();
  memo.emplace(std::string(bytes), value.value());
  return value;
}

// encode(value), or the bytes it gave before for an equal value (kept by value.Hash()).
template <class T>
std::string MemoizedEncode(const T& value, std::string (*encode)(const T& value)) {
  thread_local sim::TextMemo<T> memo;
  sim::Hasher h;
  value.Hash(h);
  return memo.Get(h.Finish(), value, [&] { return encode(value); });
}

}  // namespace repartsim::model
