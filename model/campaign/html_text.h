// Text for the HTML pages (html_timeline.h, html_sweep.h): escaping of trace text into HTML and
// into the JSON data block a page's script reads. Both are pure functions of their input, so
// a page's bytes depend on the run only.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace repartsim::campaign::html {

// `text` with &, <, >, " and ' replaced by entities: safe in element content and in a quoted
// attribute value.
std::string Escape(std::string_view text);

// `lines` as a JSON array of strings for a <script type="application/json"> block: ASCII only
// (\uXXXX escapes), and <, > and & written as \u003c, \u003e, \u0026, so no trace text can
// close the block or open a tag.
std::string ScriptJsonArray(const std::vector<std::string>& lines);

// A number with at most `decimals` digits after the point, trailing zeros dropped ("12.5").
std::string Number(double value, int decimals = 3);

}  // namespace repartsim::campaign::html
