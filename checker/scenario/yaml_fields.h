// Strict reading of yaml-cpp nodes for the scenario loader, without exceptions crossing it.
// LoadContext keeps the FIRST error (later checks are skipped once one failed, so a file
// reports one precise error). Fields wraps one mapping: every key read is consumed, and
// Finish() reports the first unknown key; Require() reports a missing key at the mapping.
// Locations are 1-based `file:line:col` (yaml-cpp marks are 0-based); every message ends with
// "(at <key path>)", e.g. "(at steps[2].at_ms)".
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/ratio.h"
#include "sim/result.h"

namespace repartsim::scenario {

class LoadContext {
 public:
  LoadContext(std::string file, std::string text)
      : file_(std::move(file)), text_(std::move(text)) {}

  bool failed() const { return error_.has_value(); }
  const sim::Error& error() const { return *error_; }
  const std::string& file() const { return file_; }

  // 1-based location of a node (its key for keys, its value for values).
  sim::SourceLocation At(const YAML::Node& node) const;
  // Records an error at `node` unless one is already recorded.
  void Fail(const YAML::Node& node, const std::string& path, const std::string& message);
  void FailAt(sim::SourceLocation location, const std::string& path, const std::string& message);
  // Maps a location inside the SQL text of scalar `node` (1-based line/column within the
  // scalar's value) to the YAML file: plain, quoted and block (| >) scalars are handled.
  sim::SourceLocation Relocate(const YAML::Node& node, uint32_t line, uint32_t column) const;

 private:
  std::string file_;
  std::string text_;
  std::optional<sim::Error> error_;
};

class Fields {
 public:
  // Records "expected a mapping" unless `node` is a mapping.
  Fields(const YAML::Node& node, LoadContext& ctx, std::string path);

  // The value of `key` (an undefined node when absent); marks the key consumed.
  YAML::Node Get(const std::string& key);
  bool Has(const std::string& key) const;
  // Like Get, but records "missing required key 'k'" when absent.
  YAML::Node Require(const std::string& key);
  // Reports the first key never read: "unknown key 'k'; expected one of: a, b".
  void Finish(const std::vector<std::string>& allowed);
  // Reports the first key not in `allowed`, read or not, in the same words: before the
  // required keys are asked for, so a misspelt one ("nmae") is named rather than the one
  // it misses.
  void RejectUnknown(const std::vector<std::string>& allowed);
  std::string PathOf(const std::string& key) const;
  const std::string& path() const { return path_; }

 private:
  YAML::Node node_;
  LoadContext& ctx_;
  std::string path_;
  std::vector<std::string> consumed_;

  void FailFirstNotIn(const std::vector<std::string>& known,
                      const std::vector<std::string>& allowed);
};

// Scalar conversions; on a wrong type they record "expected <what>, got <text>" and return
// a default. `path` names the value in messages.
std::string ReadString(const YAML::Node& node, LoadContext& ctx, const std::string& path);
int64_t ReadInt(const YAML::Node& node, LoadContext& ctx, const std::string& path,
                int64_t min_value, int64_t max_value);
bool ReadBool(const YAML::Node& node, LoadContext& ctx, const std::string& path);
sim::Ratio ReadRatio(const YAML::Node& node, LoadContext& ctx, const std::string& path);
// A sequence of scalars (a single scalar is NOT accepted: it must be a list).
std::vector<std::string> ReadStringList(const YAML::Node& node, LoadContext& ctx,
                                        const std::string& path);
// Checks that `node` is a sequence; records "expected a list" otherwise.
bool ExpectSequence(const YAML::Node& node, LoadContext& ctx, const std::string& path);

// "mapping", "list", "scalar", "null".
const char* NodeKindName(const YAML::Node& node);

}  // namespace repartsim::scenario
