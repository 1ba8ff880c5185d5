// Protocol profiles: a profile is a named set of rule switches (docs/rules.md).
// `greptime` reproduces the real system at commit 7fd0a7b, quirks included; `reference` turns
// on every safety rule. Every switch has a stable name, a one-line description and a default in
// both profiles, and can be overridden per run (YAML `rules:` and CLI `--rule name=on|off`).
// Model code reads a switch with `protocol.On(Rule::kX)`; nothing else decides behaviour.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "sim/result.h"

namespace repartsim::model {

// The switches themselves, one enumerator each, are declared in model/protocol/rules.h: only the
// files that consult a switch include it, so adding a switch rebuilds those and not every file that
// carries a Protocol.
enum class Rule : uint8_t;

enum class ProfileKind : uint8_t { kGreptime, kReference };

class Protocol {
 public:
  // The `greptime` profile.
  Protocol();
  static Protocol Greptime();
  static Protocol Reference();
  // Returns the profile called `name` ("greptime" or "reference").
  static sim::Result<Protocol> FromProfileName(std::string_view name);

  bool On(Rule rule) const { return (bits_ >> static_cast<uint32_t>(rule)) & 1u; }
  void Set(Rule rule, bool on);
  // Sets the switch called `name`; an unknown name is an error naming the valid ones.
  sim::Status SetByName(std::string_view name, bool on);
  // Parses "name=on|off" (also true/false, 1/0).
  sim::Status ApplyOverride(std::string_view assignment);

  ProfileKind base() const { return base_; }
  const char* base_name() const;
  // Switches that differ from the base profile, as "name=on,name=off"; "" when none.
  std::string OverridesText() const;
  uint64_t bits() const { return bits_; }

  friend bool operator==(const Protocol&, const Protocol&) = default;

 private:
  ProfileKind base_ = ProfileKind::kGreptime;
  uint64_t bits_ = 0;
};

}  // namespace repartsim::model
