// Text for the HTML pages (html_timeline.h, html_sweep.h): escaping of trace text into HTML and
// into the JSON data block a page's script reads. Both are pure functions of their input, so
// a page's bytes depend on the run only.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace repartsim::report::html {

// `text` with &, <, >, " and ' replaced by entities and every control character XML 1.0
// forbids (all below 0x20 but tab, newline and return; and 0x7f) shown as "\x1b": safe in HTML
// and XML element content and in a quoted attribute value. `text` must be UTF-8 (the inputs
// are checked at the boundary).
std::string Escape(std::string_view text);

// `lines` as a JSON array of strings for a <script type="application/json"> block: ASCII only
// (\uXXXX escapes), and <, > and & written as \u003c, \u003e, \u0026, so no trace text can
// close the block or open a tag.
std::string ScriptJsonArray(const std::vector<std::string>& lines);

// A number with at most `decimals` digits after the point, trailing zeros dropped ("12.5").
std::string Number(double value, int decimals = 3);

}  // namespace repartsim::report::html
