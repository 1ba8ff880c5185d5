// The fixed parts of the timeline page (html_timeline.h): its style sheet, the tool bar with
// the legend, and its script (zoom and pan on the step axis, hover and click details, the
// violation rows' links to the writes that acknowledged them, the `#selftest` check). They
// are compiled into the binary, so a page needs nothing from anywhere when it is opened.
#pragma once

namespace repartsim::campaign::html {

extern const char kTimelineCss[];
extern const char kTimelineLegend[];
extern const char kTimelineScript[];
extern const char kSweepCss[];

}  // namespace repartsim::campaign::html
