// The one way a JSON value becomes text. Scenario, choice and report paths come from the file
// system and need not be UTF-8 (a byte 0xE9 in a Latin-1 name); nlohmann::json::dump() throws
// on such a string by default, so every writer goes through JsonText, which replaces each
// invalid byte with U+FFFD instead. The text is then valid UTF-8 and JSON; the original bytes
// of such a path are not recoverable from it (docs/limits.md).
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>

namespace repartsim::sim {

// `value` as JSON text: compact when `indent` is negative, else pretty-printed with `indent`
// spaces. Never throws on invalid UTF-8 (each bad byte becomes U+FFFD).
std::string JsonText(const nlohmann::json& value, int indent = -1);
// The same for a JSON value that keeps its keys in insertion order.
std::string JsonText(const nlohmann::ordered_json& value, int indent = -1);

// `text` as a JSON string written by JsonText reads back: itself when it is valid UTF-8, else
// with U+FFFD where JsonText puts one. Compares a name from the file system with the same name
// read from a report.
std::string JsonSafe(std::string_view text);

}  // namespace repartsim::sim
