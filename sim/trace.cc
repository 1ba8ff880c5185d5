#include "sim/trace.h"

#include <algorithm>
#include <charconv>
#include <cinttypes>
#include <cstring>

#include "sim/assert.h"
#include "sim/fingerprint.h"

namespace repartsim::sim {

void Detail::Append(std::string_view s) {
  if (truncated_) return;
  const size_t room = kCapacity - 1 - size_;  // one byte kept for the "~" marker
  if (s.size() > room) {
    s = s.substr(0, room);
    truncated_ = true;
  }
  std::memcpy(buf_ + size_, s.data(), s.size());
  size_ += s.size();
  if (truncated_) buf_[size_++] = '~';
}

void Detail::AppendText(std::string_view s) {
  const size_t start = size_;
  Append(s);
  for (size_t i = start; i < size_; ++i) {
    if (buf_[i] == '\n' || buf_[i] == '\r') buf_[i] = ' ';
  }
}

template <class Int>
void Detail::AddNumber(std::string_view key, Int value) {
  Separate();
  AppendText(key);
  Append("=");
  char digits[24];
  auto [end, ec] = std::to_chars(digits, digits + sizeof(digits), value);
  REPARTSIM_ASSERT(ec == std::errc());
  Append(std::string_view(digits, static_cast<size_t>(end - digits)));
}

Detail& Detail::Add(std::string_view key, int64_t value) {
  AddNumber(key, value);
  return *this;
}

Detail& Detail::Add(std::string_view key, uint64_t value) {
  AddNumber(key, value);
  return *this;
}

Detail& Detail::Add(std::string_view key, std::string_view value) {
  Separate();
  AppendText(key);
  Append("=");
  AppendText(value);
  return *this;
}

Detail& Detail::AddQuoted(std::string_view key, std::string_view text) {
  Separate();
  AppendText(key);
  Append("=\"");
  size_t start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '"' && text[i] != '\\') continue;
    AppendText(text.substr(start, i - start));
    Append("\\");
    start = i;
  }
  AppendText(text.substr(start));
  Append("\"");  // a text cut at the capacity ends in "~" without its closing quote
  return *this;
}

Detail& Detail::Word(std::string_view word) {
  Separate();
  AppendText(word);
  return *this;
}

namespace {

void AppendNumber(std::string& out, uint64_t v) {
  char digits[24];
  auto [end, ec] = std::to_chars(digits, digits + sizeof(digits), v);
  out.append(digits, static_cast<size_t>(end - digits));
}

void AppendNumber(std::string& out, int64_t v) {
  char digits[24];
  auto [end, ec] = std::to_chars(digits, digits + sizeof(digits), v);
  out.append(digits, static_cast<size_t>(end - digits));
}

}  // namespace

void Trace::Record(uint32_t node, std::string_view kind, std::string_view detail) {
  REPARTSIM_ASSERT(!kind.empty());
  REPARTSIM_ASSERT(kind.find(' ') == std::string_view::npos);
  REPARTSIM_ASSERT(detail.find('\n') == std::string_view::npos);
  line_.clear();
  AppendNumber(line_, step_);
  line_ += ' ';
  AppendNumber(line_, now_.ms);
  line_ += ' ';
  if (node == kNoNode) {
    line_ += '-';
  } else {
    line_ += 'n';
    AppendNumber(line_, uint64_t{node});
  }
  line_ += ' ';
  line_ += kind;
  if (!detail.empty()) {
    line_ += ' ';
    line_ += detail;
  }
  hash_ = Hasher().Add(hash_).Add(std::string_view(line_)).Finish();
  ++line_count_;
  if (keep_lines_) lines_.push_back(line_);
  if (out_ != nullptr) {
    std::fwrite(line_.data(), 1, line_.size(), out_);
    std::fputc('\n', out_);
  }
}

std::string RunSummary::ToString() const {
  char buf[160];
  std::snprintf(buf, sizeof(buf),
                "seed=%" PRIu64 " steps=%" PRIu64 " prng_draws=%" PRIu64
                " trace_hash=0x%016" PRIx64,
                seed, steps, prng_draws, trace_hash);
  return buf;
}

std::string Divergence::ToString() const {
  return "first divergence at event #" + std::to_string(index) + ":\n  a: " + line_a +
         "\n  b: " + line_b;
}

std::optional<Divergence> FirstDivergence(const std::vector<std::string>& lines_a,
                                          const std::vector<std::string>& lines_b) {
  const size_t common = std::min(lines_a.size(), lines_b.size());
  for (size_t i = 0; i < common; ++i) {
    if (lines_a[i] != lines_b[i]) return Divergence{i, lines_a[i], lines_b[i]};
  }
  if (lines_a.size() == lines_b.size()) return std::nullopt;
  const std::string end = "<end of trace>";
  return Divergence{common, common < lines_a.size() ? lines_a[common] : end,
                    common < lines_b.size() ? lines_b[common] : end};
}

}  // namespace repartsim::sim
