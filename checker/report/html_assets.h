// The fixed parts of the timeline page (html_timeline.h): its style sheet, the tool bar with
// the legend, and its script (zoom and pan on the step axis, hover and click details, the
// violation rows' links to the writes that acknowledged them, the `#selftest` check). They
// are the files of checker/report/assets/ (timeline.css, timeline_legend.html, timeline.js,
// sweep.css), compiled into the binary at build time (checker/CMakeLists.txt), so a page needs
// nothing from anywhere when it is opened.
#pragma once

namespace repartsim::report::html {

extern const char kTimelineCss[];
extern const char kTimelineLegend[];
extern const char kTimelineScript[];
extern const char kSweepCss[];

}  // namespace repartsim::report::html
