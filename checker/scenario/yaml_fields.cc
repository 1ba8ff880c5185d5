#include "checker/scenario/yaml_fields.h"

#include <algorithm>
#include <charconv>

#include "sim/suggest.h"

namespace repartsim::scenario {

namespace {

// The 0-based line `index` of `text`, without its newline ("" past the end).
std::string_view LineOf(std::string_view text, size_t index) {
  size_t begin = 0;
  for (size_t i = 0; i < index; ++i) {
    size_t nl = text.find('\n', begin);
    if (nl == std::string_view::npos) return {};
    begin = nl + 1;
  }
  size_t end = text.find('\n', begin);
  return text.substr(begin, end == std::string_view::npos ? text.size() - begin : end - begin);
}

uint32_t Indent(std::string_view line) {
  uint32_t n = 0;
  while (n < line.size() && line[n] == ' ') ++n;
  return n;
}

// A scalar quoted in an error: at most kQuotedBytesMax bytes of it (cut at a UTF-8 character
// boundary), so a file that is not YAML at all (`report` on a run whose path names
// /etc/passwd) is named, not printed whole.
std::string Quote(const YAML::Node& node) {
  if (!node.IsScalar()) return std::string("a ") + NodeKindName(node);
  constexpr size_t kQuotedBytesMax = 60;
  const std::string& text = node.Scalar();
  if (text.size() <= kQuotedBytesMax) return "'" + text + "'";
  size_t cut = kQuotedBytesMax;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return "'" + text.substr(0, cut) + "...' (" + std::to_string(text.size()) + " bytes)";
}

}  // namespace

const char* NodeKindName(const YAML::Node& node) {
  if (node.IsMap()) return "mapping";
  if (node.IsSequence()) return "list";
  if (node.IsScalar()) return "scalar";
  return "null";
}

sim::SourceLocation LoadContext::At(const YAML::Node& node) const {
  const YAML::Mark mark = node.Mark();
  if (mark.is_null()) return sim::SourceLocation{file_, 0, 0};
  return sim::SourceLocation{file_, static_cast<uint32_t>(mark.line + 1),
                             static_cast<uint32_t>(mark.column + 1)};
}

void LoadContext::Fail(const YAML::Node& node, const std::string& path,
                       const std::string& message) {
  FailAt(At(node), path, message);
}

void LoadContext::FailAt(sim::SourceLocation location, const std::string& path,
                         const std::string& message) {
  if (error_) return;
  std::string text = message;
  if (!path.empty()) text += " (at " + path + ")";
  error_ = sim::Error{std::move(location), std::move(text)};
}

sim::SourceLocation LoadContext::Relocate(const YAML::Node& node, uint32_t line,
                                          uint32_t column) const {
  const YAML::Mark mark = node.Mark();
  if (mark.is_null() || line == 0) return At(node);
  const std::string_view first = LineOf(text_, static_cast<size_t>(mark.line));
  const char style = static_cast<size_t>(mark.column) < first.size() ? first[mark.column] : ' ';
  if (style == '|' || style == '>') {
    // Block scalar: the value starts on the next line at that line's indentation.
    const size_t yaml_line = static_cast<size_t>(mark.line) + line;  // 0-based
    const uint32_t indent = Indent(LineOf(text_, static_cast<size_t>(mark.line) + 1));
    return sim::SourceLocation{file_, static_cast<uint32_t>(yaml_line + 1), indent + column};
  }
  const uint32_t quote = (style == '"' || style == '\'') ? 1 : 0;
  if (line == 1) {
    return sim::SourceLocation{file_, static_cast<uint32_t>(mark.line + 1),
                               static_cast<uint32_t>(mark.column) + quote + column};
  }
  // A folded multi-line flow scalar: continuation lines keep their own indentation.
  const size_t yaml_line = static_cast<size_t>(mark.line) + line - 1;
  const uint32_t indent = Indent(LineOf(text_, yaml_line));
  return sim::SourceLocation{file_, static_cast<uint32_t>(yaml_line + 1), indent + column};
}

Fields::Fields(const YAML::Node& node, LoadContext& ctx, std::string path)
    : node_(node), ctx_(ctx), path_(std::move(path)) {
  if (!node.IsMap()) {
    ctx_.Fail(node, path_.empty() ? "<top>" : path_,
              std::string("expected a mapping, got ") + Quote(node));
    return;
  }
  std::vector<std::string> keys;
  for (const auto& item : node) {
    const std::string key = item.first.IsScalar() ? item.first.Scalar() : "?";
    if (std::find(keys.begin(), keys.end(), key) != keys.end()) {
      ctx_.Fail(item.first, PathOf(key), "duplicate key '" + key + "'");
      return;
    }
    keys.push_back(key);
  }
}

std::string Fields::PathOf(const std::string& key) const {
  return path_.empty() ? key : path_ + "." + key;
}

bool Fields::Has(const std::string& key) const {
  if (!node_.IsMap()) return false;
  for (const auto& item : node_) {
    if (item.first.IsScalar() && item.first.Scalar() == key) return true;
  }
  return false;
}

YAML::Node Fields::Get(const std::string& key) {
  consumed_.push_back(key);
  if (!node_.IsMap()) return YAML::Node(YAML::NodeType::Undefined);
  for (const auto& item : node_) {
    if (item.first.IsScalar() && item.first.Scalar() == key) return item.second;
  }
  return YAML::Node(YAML::NodeType::Undefined);
}

YAML::Node Fields::Require(const std::string& key) {
  if (!Has(key)) {
    ctx_.Fail(node_, path_.empty() ? "<top>" : path_, "missing required key '" + key + "'");
  }
  return Get(key);
}

void Fields::Finish(const std::vector<std::string>& allowed) { FailFirstNotIn(consumed_, allowed); }

void Fields::RejectUnknown(const std::vector<std::string>& allowed) {
  FailFirstNotIn(allowed, allowed);
}

void Fields::FailFirstNotIn(const std::vector<std::string>& known,
                            const std::vector<std::string>& allowed) {
  if (!node_.IsMap() || ctx_.failed()) return;
  for (const auto& item : node_) {
    const std::string key = item.first.IsScalar() ? item.first.Scalar() : "?";
    if (std::find(known.begin(), known.end(), key) != known.end()) continue;
    std::string list;
    for (const std::string& a : allowed) list += (list.empty() ? "" : ", ") + a;
    ctx_.Fail(
        item.first, PathOf(key),
        "unknown key '" + key + "'" + sim::DidYouMean(key, allowed) + "; expected one of: " + list);
    return;
  }
}

std::string ReadString(const YAML::Node& node, LoadContext& ctx, const std::string& path) {
  if (!node.IsScalar()) {
    ctx.Fail(node, path, std::string("expected a string, got ") + Quote(node));
    return {};
  }
  return node.Scalar();
}

int64_t ReadInt(const YAML::Node& node, LoadContext& ctx, const std::string& path,
                int64_t min_value, int64_t max_value) {
  if (!node.IsScalar()) {
    ctx.Fail(node, path, std::string("expected an integer, got ") + Quote(node));
    return min_value;
  }
  const std::string& s = node.Scalar();
  if (node.Tag() == "!") {  // quoted: "3" is a string in YAML
    ctx.Fail(node, path,
             "expected an integer, got the string " + Quote(node) + " (drop the quotes)");
    return min_value;
  }
  int64_t value = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty()) {
    ctx.Fail(node, path, "expected an integer, got '" + s + "'");
    return min_value;
  }
  if (value < min_value || value > max_value) {
    ctx.Fail(node, path,
             "value " + s + " out of range [" + std::to_string(min_value) + ", " +
                 std::to_string(max_value) + "]");
    return min_value;
  }
  return value;
}

bool ReadBool(const YAML::Node& node, LoadContext& ctx, const std::string& path) {
  if (node.IsScalar()) {
    const std::string& s = node.Scalar();
    if (s == "true" || s == "on" || s == "yes") return true;
    if (s == "false" || s == "off" || s == "no") return false;
  }
  ctx.Fail(node, path, std::string("expected true or false, got ") + Quote(node));
  return false;
}

sim::Ratio ReadRatio(const YAML::Node& node, LoadContext& ctx, const std::string& path) {
  if (!node.IsScalar()) {
    ctx.Fail(node, path, std::string("expected a ratio such as \"1/100\", got ") + Quote(node));
    return sim::Ratio::Never();
  }
  sim::Result<sim::Ratio> ratio = sim::ParseRatio(node.Scalar(), ctx.At(node));
  if (!ratio.ok()) {
    ctx.FailAt(ratio.error().location, path, ratio.error().message);
    return sim::Ratio::Never();
  }
  return ratio.value();
}

bool ExpectSequence(const YAML::Node& node, LoadContext& ctx, const std::string& path) {
  if (node.IsSequence()) return true;
  ctx.Fail(node, path, std::string("expected a list, got ") + Quote(node));
  return false;
}

std::vector<std::string> ReadStringList(const YAML::Node& node, LoadContext& ctx,
                                        const std::string& path) {
  std::vector<std::string> out;
  if (!ExpectSequence(node, ctx, path)) return out;
  for (size_t i = 0; i < node.size(); ++i) {
    out.push_back(ReadString(node[i], ctx, path + "[" + std::to_string(i) + "]"));
  }
  return out;
}

}  // namespace repartsim::scenario
