// Splitting a console script into statements, as sqlness reads a `.sql` case: a statement
// ends at a ';' outside quotes and comments and keeps the comment lines written before it
// (its echo in the `.result` form). Blank lines between statements are dropped; text after
// the last ';' is a statement that is not complete yet (interactive input reads on).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "sim/result.h"

namespace repartsim::console {

struct ScriptStatement {
  std::string text;              // as written, from its first comment line to its ';'
  sim::SourceLocation location;  // where `text` starts in the script
  bool complete = false;         // ended by a ';' (else the script ended first)
};

// The statements of `script` (named `file` in locations), in order. Only the last one can be
// incomplete; a tail of blanks is not a statement.
std::vector<ScriptStatement> SplitScript(std::string_view script, const std::string& file);

}  // namespace repartsim::console
