#include "sim/ratio.h"

#include <charconv>

namespace repartsim::sim {

std::string Ratio::ToString() const { return std::to_string(num) + "/" + std::to_string(den); }

namespace {

Error RatioError(SourceLocation where, size_t offset, const char* what, std::string_view text) {
  if (where.column > 0) where.column += static_cast<uint32_t>(offset);
  return MakeError(std::move(where),
                   std::string("ratio: ") + what + " '" + std::string(text) + "'");
}

bool IsDigits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

}  // namespace

Result<Ratio> ParseRatio(std::string_view text, SourceLocation where) {
  const size_t slash = text.find('/');
  std::string_view num_text = text.substr(0, slash);
  std::string_view den_text = slash == std::string_view::npos ? "1" : text.substr(slash + 1);
  if (slash == std::string_view::npos && num_text != "0" && num_text != "1") {
    return RatioError(where, 0, "expected N/D, got", text);
  }
  if (!IsDigits(num_text)) return RatioError(where, 0, "expected N/D, got", text);
  if (!IsDigits(den_text)) return RatioError(where, slash + 1, "expected N/D, got", text);
  uint32_t num = 0;
  uint32_t den = 0;
  auto [num_end, num_ec] = std::from_chars(num_text.data(), num_text.data() + num_text.size(), num);
  if (num_ec != std::errc()) return RatioError(where, 0, "number too large in", text);
  auto [den_end, den_ec] = std::from_chars(den_text.data(), den_text.data() + den_text.size(), den);
  if (den_ec != std::errc()) return RatioError(where, slash + 1, "number too large in", text);
  (void)num_end;
  (void)den_end;
  if (den == 0) return RatioError(where, slash + 1, "denominator must be positive in", text);
  if (num > den) return RatioError(where, 0, "numerator exceeds denominator in", text);
  return Ratio{num, den};
}

}  // namespace repartsim::sim
