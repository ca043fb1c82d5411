// File: common/report/svg_chart.cc
#include "common/report/svg_chart.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace warpwatch::report {
namespace {

constexpr double kWidth = 960;
constexpr double kCharWidth = 6.8;  // average advance of 12 px sans-serif, for layout only
constexpr double kBarHeight = 14;
constexpr double kRowGap = 8;
constexpr double kTitleHeight = 34;
constexpr double kLegendHeight = 22;
constexpr double kAxisHeight = 46;
constexpr double kValueSpace = 120;  // right of the plot, for the last bar's text
const char* const kColors[] = {"#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#9c755f"};

std::string Xml(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string Num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

std::string TickText(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

bool Drawable(const std::optional<BarValue>& v) {
  return v.has_value() && std::isfinite(v->value) && v->value >= 0;
}

bool HasWhisker(const BarValue& v) {
  return std::isfinite(v.low) && std::isfinite(v.high) && v.high >= v.low && v.low >= 0;
}

}  // namespace

double NiceTickStep(double max) {
  if (!(max > 0) || !std::isfinite(max)) return 1;
  const double raw = max / 5;
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0}) {
    if (m * power >= raw) return m * power;
  }
  return 10 * power;
}

std::string RenderBarChart(const BarChart& chart) {
  const size_t series = std::max<size_t>(1, chart.series.size());
  size_t longest = 0;
  double max = 0;
  for (const BarRow& row : chart.rows) {
    longest = std::max(longest, row.label.size());
    for (const auto& v : row.values) {
      if (!Drawable(v)) continue;
      max = std::max(max, v->value);
      if (HasWhisker(*v)) max = std::max(max, v->high);
    }
  }
  const double label_width = std::min(420.0, 16 + kCharWidth * static_cast<double>(longest));
  const double plot_left = label_width + 8;
  const double plot_width = kWidth - plot_left - kValueSpace;
  const double step = NiceTickStep(max);
  const double axis_max = max > 0 ? std::ceil(max / step) * step : step;
  const double legend = chart.series.size() > 1 ? kLegendHeight : 0;
  const double row_height = kBarHeight * static_cast<double>(series) + kRowGap;
  const double plot_top = kTitleHeight + legend;
  const double plot_height = row_height * static_cast<double>(chart.rows.size());
  const double height = plot_top + plot_height + kAxisHeight + (chart.footnote.empty() ? 0 : 16);
  auto x_of = [&](double v) { return plot_left + plot_width * v / axis_max; };

  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << Num(kWidth) << "\" height=\""
      << Num(height) << "\" viewBox=\"0 0 " << Num(kWidth) << " " << Num(height)
      << "\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"12\">\n";
  svg << "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
  svg << "<text x=\"" << Num(kWidth / 2) << "\" y=\"22\" text-anchor=\"middle\" font-size=\"15\""
      << " font-weight=\"bold\">" << Xml(chart.title) << "</text>\n";
  if (legend > 0) {
    double x = plot_left;
    for (size_t s = 0; s < chart.series.size(); ++s) {
      svg << "<rect x=\"" << Num(x) << "\" y=\"" << Num(kTitleHeight + 2) << "\" width=\"12\""
          << " height=\"12\" fill=\"" << kColors[s % 5] << "\"/>";
      svg << "<text x=\"" << Num(x + 16) << "\" y=\"" << Num(kTitleHeight + 12) << "\">"
          << Xml(chart.series[s]) << "</text>\n";
      x += 40 + kCharWidth * static_cast<double>(chart.series[s].size());
    }
  }
  // Grid and ticks.
  for (double t = 0; t <= axis_max * (1 + 1e-9); t += step) {
    const double x = x_of(t);
    svg << "<line x1=\"" << Num(x) << "\" y1=\"" << Num(plot_top) << "\" x2=\"" << Num(x)
        << "\" y2=\"" << Num(plot_top + plot_height) << "\" stroke=\"#dddddd\"/>";
    svg << "<text x=\"" << Num(x) << "\" y=\"" << Num(plot_top + plot_height + 16)
        << "\" text-anchor=\"middle\" fill=\"#444444\">" << TickText(t) << "</text>\n";
  }
  svg << "<line x1=\"" << Num(plot_left) << "\" y1=\"" << Num(plot_top + plot_height) << "\" x2=\""
      << Num(plot_left + plot_width) << "\" y2=\"" << Num(plot_top + plot_height)
      << "\" stroke=\"#444444\"/>\n";
  svg << "<text x=\"" << Num(plot_left + plot_width / 2) << "\" y=\""
      << Num(plot_top + plot_height + 36) << "\" text-anchor=\"middle\">" << Xml(chart.axis_label)
      << "</text>\n";
  if (!chart.footnote.empty()) {
    svg << "<text x=\"8\" y=\"" << Num(height - 6) << "\" font-size=\"10\" fill=\"#555555\">"
        << Xml(chart.footnote) << "</text>\n";
  }
  // Rows.
  for (size_t r = 0; r < chart.rows.size(); ++r) {
    const BarRow& row = chart.rows[r];
    const double top = plot_top + row_height * static_cast<double>(r) + kRowGap / 2;
    svg << "<text x=\"" << Num(label_width) << "\" y=\""
        << Num(top + kBarHeight * static_cast<double>(series) / 2 + 4) << "\" text-anchor=\"end\""
        << (row.highlight ? " font-weight=\"bold\"" : "") << ">" << Xml(row.label) << "</text>\n";
    for (size_t s = 0; s < row.values.size() && s < series; ++s) {
      if (!Drawable(row.values[s])) continue;
      const BarValue& v = *row.values[s];
      const double y = top + kBarHeight * static_cast<double>(s);
      double end = x_of(v.value);
      svg << "<rect x=\"" << Num(plot_left) << "\" y=\"" << Num(y + 1) << "\" width=\""
          << Num(std::max(0.5, end - plot_left)) << "\" height=\"" << Num(kBarHeight - 2)
          << "\" fill=\"" << kColors[s % 5] << "\""
          << (row.highlight ? " stroke=\"#222222\" stroke-width=\"1.2\"" : "") << "/>";
      if (HasWhisker(v)) {
        const double mid = y + kBarHeight / 2;
        svg << "<path d=\"M" << Num(x_of(v.low)) << " " << Num(mid) << "H" << Num(x_of(v.high))
            << "M" << Num(x_of(v.low)) << " " << Num(mid - 4) << "v8M" << Num(x_of(v.high)) << " "
            << Num(mid - 4) << "v8\" stroke=\"#222222\" fill=\"none\"/>";
        end = std::max(end, x_of(v.high));
      }
      if (!v.text.empty()) {
        svg << "<text x=\"" << Num(end + 4) << "\" y=\"" << Num(y + kBarHeight - 3)
            << "\" font-size=\"11\" fill=\"#222222\">" << Xml(v.text) << "</text>";
      }
      svg << "\n";
    }
  }
  svg << "</svg>\n";
  return svg.str();
}

}  // namespace warpwatch::report
