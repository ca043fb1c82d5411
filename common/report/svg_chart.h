// File: common/report/svg_chart.h
// A horizontal bar chart as one standalone SVG document: a row per category, a bar per series in
// each row, an optional low-high whisker per bar (a p10-p90 range), the value's text at the end of
// its bar, a linear axis from 0 with round ticks, and a legend when there are several series.
// Nothing is fetched (no fonts, scripts or images), so it renders the same in a browser, in
// GitHub's Markdown and in rsvg-convert.
#ifndef WARPWATCH_COMMON_REPORT_SVG_CHART_H_
#define WARPWATCH_COMMON_REPORT_SVG_CHART_H_

#include <cmath>
#include <optional>
#include <string>
#include <vector>

namespace warpwatch::report {

struct BarValue {
  double value = 0;           // >= 0; bars start at 0
  double low = std::nan("");  // whisker from low to high, when both are finite
  double high = std::nan("");
  std::string text;  // printed after the bar (or its whisker); empty: nothing
};

struct BarRow {
  std::string label;
  std::vector<std::optional<BarValue>> values;  // one per series; nullopt: no bar (not measured)
  bool highlight = false;                       // drawn bold: the variant the guide recommends
};

struct BarChart {
  std::string title;
  std::string axis_label;           // under the axis, with its unit: "median time (us)"
  std::vector<std::string> series;  // legend names; one series needs none
  std::vector<BarRow> rows;
  std::string footnote;  // one line under the axis: what the whiskers are, sources
};

// The SVG document (UTF-8, starts with "<svg"). Labels and texts are XML-escaped. Non-finite or
// negative values are drawn as no bar. Pure; thread-safe.
std::string RenderBarChart(const BarChart& chart);

// A round axis step for values up to `max` (1, 2, 2.5 or 5 times a power of ten, about five
// ticks); 1 when max <= 0 or not finite.
double NiceTickStep(double max);

}  // namespace warpwatch::report

#endif  // WARPWATCH_COMMON_REPORT_SVG_CHART_H_
