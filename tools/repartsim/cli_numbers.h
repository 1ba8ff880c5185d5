// The one way a verb takes a number or a value from its flags. Every numeric flag is checked
// by the same parser with a range before CLI11 converts it, so '-5' for a count (which CLI11
// would wrap to 2^64-5), '1e20', 'nan', 'inf', '-1' seconds and '' are usage errors (exit 64,
// located at the flag) rather than an unbounded search; and a value flag given an empty value
// ('--seeds ""', '--profile ""') is an error, not the flag left out.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>

namespace repartsim::tools {

// The bound of every wall-time flag (--max-seconds): a year.
inline constexpr double kSecondsFlagMax = 365.0 * 24 * 3600;

// A decimal integer in [min, max]: digits only, no sign, no exponent.
CLI::Validator IntegerIn(uint64_t min, uint64_t max);
// A finite, non-negative decimal number of seconds at most `max` ("90", "2.5").
CLI::Validator SecondsUpTo(double max);
// A duration ("90s", "5m", "500ms", the unit `--time-budget` takes) of at most `max` seconds,
// turned into its number of seconds for the flag's variable.
CLI::Validator DurationAsSeconds(double max);
// Adds a non-empty check to every option that takes a value, in `app` and its subcommands.
void RequireNonEmptyValues(CLI::App& app);

}  // namespace repartsim::tools
