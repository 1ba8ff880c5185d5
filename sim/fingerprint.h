// Hasher: a stable, documented 64-bit hash for state fingerprints and the trace hash chain.
// Never std::hash (implementation-defined). Algorithm (pinned by tests/sim/fingerprint_test.cc):
//   h starts at 0xcbf29ce484222325 (the FNV-1a-64 offset basis).
//   Absorb(w) for a 64-bit word w:  h = (h ^ w) * 0x100000001b3;  h ^= h >> 32.
//   Add(uint64_t v)       -> Absorb(v).
//   Add(std::string_view) -> Absorb(length), then each 8-byte little-endian chunk, the last
//                            chunk zero-padded (length prefix keeps "ab","c" != "a","bc").
//   Finish()              -> splitmix64 finaliser of h (does not change the hasher).
// Word-wise absorption keeps hashing a trace line to a few nanoseconds; allocation-free.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace repartsim::sim {

// The splitmix64 output function: a bijective 64-bit mix.
constexpr uint64_t Mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

class Hasher {
 public:
  static constexpr uint64_t kOffsetBasis = 0xcbf29ce484222325ULL;
  static constexpr uint64_t kPrime = 0x100000001b3ULL;

  Hasher& Add(uint64_t v) {
    Absorb(v);
    return *this;
  }
  Hasher& Add(int64_t v) { return Add(static_cast<uint64_t>(v)); }
  Hasher& Add(uint32_t v) { return Add(static_cast<uint64_t>(v)); }
  Hasher& Add(int32_t v) { return Add(static_cast<uint64_t>(static_cast<int64_t>(v))); }
  Hasher& Add(bool v) { return Add(static_cast<uint64_t>(v ? 1 : 0)); }
  Hasher& Add(std::string_view s) {
    Absorb(s.size());
    size_t i = 0;
    for (; i + 8 <= s.size(); i += 8) Absorb(LoadLe(s.data() + i, 8));
    if (i < s.size()) Absorb(LoadLe(s.data() + i, s.size() - i));
    return *this;
  }
  Hasher& Add(const char* s) { return Add(std::string_view(s)); }

  uint64_t Finish() const { return Mix64(h_); }

 private:
  void Absorb(uint64_t w) {
    h_ = (h_ ^ w) * kPrime;
    h_ ^= h_ >> 32;
  }
  // Byte-order independent load of up to 8 bytes as a little-endian integer.
  static uint64_t LoadLe(const char* p, size_t n) {
    if constexpr (std::endian::native == std::endian::little) {
      if (n == 8) {
        uint64_t w;
        std::memcpy(&w, p, 8);
        return w;
      }
    }
    uint64_t w = 0;
    for (size_t k = 0; k < n; ++k) {
      w |= static_cast<uint64_t>(static_cast<unsigned char>(p[k])) << (8 * k);
    }
    return w;
  }

  uint64_t h_ = kOffsetBasis;
};

// The seam of the fingerprint-completeness tests (tests/model/*/fingerprint_completeness_test.cc):
// a class whose private fields those tests must change one at a time declares
// `friend struct sim::FingerprintSeam<Class>;`, and only such a test defines the
// specialisation (accessors to those fields). Model and engine code never define or use it.
template <class T>
struct FingerprintSeam;

// "0x" and 16 lowercase hex digits: how reports print a hash (trace hashes, file and binary
// ids).
inline std::string Hex64(uint64_t value) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out = "0x0000000000000000";
  for (int i = 17; i >= 2; --i, value >>= 4) out[static_cast<size_t>(i)] = kDigits[value & 0xf];
  return out;
}

}  // namespace repartsim::sim
