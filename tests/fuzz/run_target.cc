// FuzzRun and MutateScenario: see fuzz_targets.h.
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "checker/run/runner.h"
#include "checker/scenario/loader.h"
#include "tests/fuzz/fuzz_targets.h"

namespace repartsim::fuzz {

int FuzzRun(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto loaded = scenario::ParseScenario(text, "fuzz.yaml");
  if (!loaded.ok()) return 0;
  scenario::Scenario s = std::move(loaded).value();
  s.limits.steps_max = std::min<uint64_t>(s.limits.steps_max, kRunStepsFuzz);
  run::RunConfig config;
  config.seed = size % 4;
  auto report = run::RunScenario(s, config);
  (void)report;
  return 0;
}

namespace {

// Words a scenario is made of: node names, profiles, message kinds, procedure states,
// ratios, booleans, times at and past the limits.
const char* const kWords[] = {
    "metasrv",
    "dn1",
    "dn2",
    "dn3",
    "fe1",
    "fe2",
    "reference",
    "greptime",
    "pass",
    "true",
    "false",
    "all",
    "1/2",
    "1/100",
    "0/1",
    "1/1",
    "0",
    "1",
    "-1",
    "3600000",
    "3600001",
    "2000000",
    "2000001",
    "9999999999999",
    "18446744073709551616",
    "RegionResponse",
    "RouteReply",
    "InvalidateCache",
    "EnterStaging",
    "Repartition.RepartitionEnd",
    "Repartition.AllocateRegion",
    "Repartition.Dispatch",
    "Group.ApplyStagingManifest",
    "Group.RemapManifest",
    "Group.UpdateMetadata",
    "INV-NOOMIT",
    "INV-LIVE",
    "point",
    "range",
    "count",
    "ALTER TABLE t SPLIT PARTITION (a < 10) INTO (a < 5, a >= 5 AND a < 10)",
    "ALTER TABLE t MERGE PARTITION (a < 10, a >= 10 AND a < 20)",
    "INSERT INTO t VALUES ('h', 1, 1)",
    "SELECT * FROM t WHERE a IN (1, 2, NULL)",
};

struct Picker {
  uint64_t state;
  uint64_t Next() {  // splitmix64: the mutator needs no quality, only determinism per seed
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  size_t Below(size_t n) { return n == 0 ? 0 : static_cast<size_t>(Next() % n); }
};

void Collect(YAML::Node node, int depth, std::vector<YAML::Node>& scalars,
             std::vector<YAML::Node>& sequences) {
  if (depth > 32) return;
  if (node.IsScalar()) {
    scalars.push_back(node);
  } else if (node.IsSequence()) {
    sequences.push_back(node);
    for (size_t i = 0; i < node.size(); ++i) Collect(node[i], depth + 1, scalars, sequences);
  } else if (node.IsMap()) {
    for (auto it = node.begin(); it != node.end(); ++it) {
      Collect(it->second, depth + 1, scalars, sequences);
    }
  }
}

std::string MutateScalar(const std::string& value, Picker& pick, size_t size_max,
                         size_t (*byte_mutator)(uint8_t*, size_t, size_t)) {
  switch (pick.Below(4)) {
    case 0: {  // a number nudged
      int64_t n = 0;
      try {
        n = std::stoll(value);
      } catch (...) {
        n = 0;
      }
      // Wrapping arithmetic: the mutator itself must not overflow (UBSan).
      const uint64_t u = static_cast<uint64_t>(n);
      const uint64_t choices[] = {u + 1,
                                  u - 1,
                                  u * 2,
                                  u * 1000,
                                  0 - u,
                                  static_cast<uint64_t>(INT64_MAX),
                                  static_cast<uint64_t>(INT64_MIN)};
      return std::to_string(static_cast<int64_t>(choices[pick.Below(std::size(choices))]));
    }
    case 1:
      return kWords[pick.Below(std::size(kWords))];
    default: {
      std::string buffer = value;
      const size_t capacity = std::min<size_t>(size_max, buffer.size() * 2 + 16);
      buffer.resize(capacity);
      const size_t n =
          byte_mutator(reinterpret_cast<uint8_t*>(buffer.data()), value.size(), capacity);
      buffer.resize(n);
      return buffer;
    }
  }
}

}  // namespace

size_t MutateScenario(uint8_t* data, size_t size, size_t size_max, unsigned int seed,
                      size_t (*byte_mutator)(uint8_t*, size_t, size_t)) {
  Picker pick{seed};
  if (pick.Below(4) == 0) return byte_mutator(data, size, size_max);
  std::string out;
  try {
    YAML::Node root = YAML::Load(std::string(reinterpret_cast<const char*>(data), size));
    std::vector<YAML::Node> scalars;
    std::vector<YAML::Node> sequences;
    Collect(root, 0, scalars, sequences);
    if (scalars.empty()) return byte_mutator(data, size, size_max);
    if (!sequences.empty() && pick.Below(8) == 0) {
      // Structural: repeat one entry of a list (steps, setup, placement, tags...).
      YAML::Node seq = sequences[pick.Below(sequences.size())];
      if (seq.size() > 0) seq.push_back(YAML::Clone(seq[pick.Below(seq.size())]));
    } else {
      YAML::Node target = scalars[pick.Below(scalars.size())];
      target = MutateScalar(target.Scalar(), pick, size_max, byte_mutator);
    }
    YAML::Emitter emitter;
    emitter << root;
    if (!emitter.good()) return byte_mutator(data, size, size_max);
    out = emitter.c_str();
  } catch (const YAML::Exception&) {
    return byte_mutator(data, size, size_max);
  }
  if (out.size() > size_max) return byte_mutator(data, size, size_max);
  std::memcpy(data, out.data(), out.size());
  return out.size();
}

}  // namespace repartsim::fuzz
