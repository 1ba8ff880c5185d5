// Switches a rule of a test's protocol by its stable name (the one YAML and the CLI use), so that
// model tests do not depend on the Rule enumeration (model/protocol/rules.h): adding a switch
// rebuilds only the model files that consult it, and no test. An unknown name fails the calling
// test.
#pragma once

#include <gtest/gtest.h>

#include <string_view>

#include "model/protocol/protocol.h"

namespace repartsim::model::testing {

// Turns the switch called `name` on (or off) in `protocol`.
inline void SetRule(Protocol& protocol, std::string_view name, bool on = true) {
  const sim::Status status = protocol.SetByName(name, on);
  EXPECT_TRUE(status.ok()) << "no rule switch is called '" << name << "'";
}

}  // namespace repartsim::model::testing
