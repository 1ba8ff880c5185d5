// Reports are JSON objects read by key, and nlohmann::json keeps the last of two equal keys of
// one object without a word: a report edited by hand, or two reports pasted together, read as
// something nobody wrote. FindDuplicateJsonKey finds the first repeated key, so the readers
// (merge, sweep --resume, report) refuse it with a located error.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace repartsim::campaign {

// The path (object keys, array indices as decimal text) of the first key of `text` repeated
// within one object, the key last; nullopt when there is none or `text` is not valid JSON
// (the parser reports that). One SAX pass: no tree, memory for the keys of the open objects.
// (A parser callback on the tree's parse made it quadratic in a long array of objects:
// nlohmann's callback parser scans the parent array at each object's end.)
std::optional<std::vector<std::string>> FindDuplicateJsonKey(const std::string& text);

}  // namespace repartsim::campaign
