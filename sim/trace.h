// Trace: one line per simulated event plus a running hash chain over the lines.
// Line format (space separated, no trailing space, no newline inside):
//   <step> <time_ms> <node> <kind> [<detail>]
//   step: 0-based driver step that produced the line (one step may log several lines);
//   time_ms: virtual time; node: "n<id>", or "-" for none; kind: a whitespace-free word
//   ("recv", "crash"); detail: words without newlines, usually key=value pairs; a value
//   with spaces is double-quoted (Detail::AddQuoted) or parenthesised (a region id).
// Hash chain: trace_hash_0 = 0, trace_hash_i = Hasher().Add(trace_hash_{i-1}).Add(line_i)
// .Finish(). Hashing never depends on the sink; with no sink nothing allocates per event
// (the line is formatted into a reusable buffer).
#pragma once

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/time.h"

namespace repartsim::sim {

inline constexpr uint32_t kNoNode = 0xffffffffu;

// A fixed-capacity builder for trace details ("key=value key=value"); never allocates.
// Text beyond the capacity is cut and marked with "~".
class Detail {
 public:
  Detail& Add(std::string_view key, int64_t value);
  Detail& Add(std::string_view key, uint64_t value);
  Detail& Add(std::string_view key, uint32_t value) { return Add(key, uint64_t{value}); }
  Detail& Add(std::string_view key, int32_t value) { return Add(key, int64_t{value}); }
  Detail& Add(std::string_view key, std::string_view value);
  Detail& Add(std::string_view key, const char* value) { return Add(key, std::string_view(value)); }
  // key="text": the text between double quotes, '"' and '\\' escaped by a backslash (for
  // free text with spaces: SQL, error messages). JSON readers decode it as a string.
  Detail& AddQuoted(std::string_view key, std::string_view text);
  // Appends a bare word (no key).
  Detail& Word(std::string_view word);
  std::string_view view() const { return std::string_view(buf_, size_); }

 private:
  void Append(std::string_view s);      // copies verbatim
  void AppendText(std::string_view s);  // copies, turning '\n' and '\r' into spaces
  template <class Int>
  void AddNumber(std::string_view key, Int value);
  void Separate() {
    if (size_ > 0) Append(" ");
  }
  static constexpr size_t kCapacity = 240;
  char buf_[kCapacity];
  size_t size_ = 0;
  bool truncated_ = false;
};

class Trace {
 public:
  // Hash only; lines are neither kept nor written.
  Trace() = default;

  // Keep every line in memory (for replay comparison and FirstDivergence).
  void KeepLines(bool keep) { keep_lines_ = keep; }
  // Also write every line, newline-terminated, to `out` (not owned; nullptr stops writing).
  void WriteTo(std::FILE* out) { out_ = out; }

  // Set by the driver before each step; stamps subsequent lines.
  void SetClock(uint64_t step, SimTime now) {
    step_ = step;
    now_ = now;
  }

  // Appends one line. REQUIRES: kind is non-empty and has no whitespace; detail has no '\n'.
  void Record(uint32_t node, std::string_view kind, std::string_view detail = {});

  uint64_t hash() const { return hash_; }
  uint64_t line_count() const { return line_count_; }
  const std::vector<std::string>& lines() const { return lines_; }
  // The most recently formatted line (valid until the next Record).
  std::string_view last_line() const { return line_; }

 private:
  bool keep_lines_ = false;
  std::FILE* out_ = nullptr;
  uint64_t step_ = 0;
  SimTime now_;
  uint64_t hash_ = 0;
  uint64_t line_count_ = 0;
  std::string line_;
  std::vector<std::string> lines_;
};

// The identity of a run, printed by every run and compared by replays.
struct RunSummary {
  uint64_t seed = 0;
  uint64_t steps = 0;
  uint64_t prng_draws = 0;
  uint64_t trace_hash = 0;
  // "seed=<dec> steps=<dec> prng_draws=<dec> trace_hash=0x<16 hex digits>"
  std::string ToString() const;
  friend bool operator==(const RunSummary&, const RunSummary&) = default;
};

// The first event at which two traces differ. A missing line (one trace is shorter) reads
// "<end of trace>".
struct Divergence {
  size_t index = 0;
  std::string line_a;
  std::string line_b;
  // "first divergence at event #<index>:\n  a: <line_a>\n  b: <line_b>"
  std::string ToString() const;
};

// Returns nullopt iff the traces are equal line for line.
std::optional<Divergence> FirstDivergence(const std::vector<std::string>& lines_a,
                                          const std::vector<std::string>& lines_b);

}  // namespace repartsim::sim
