// File: cli/format/series_view.cc
#include "cli/format/series_view.h"

#include <cstdio>
#include <string>
#include <vector>

#include "cli/format/duration.h"
#include "cli/format/regression_view.h"
#include "cli/format/result_units.h"
#include "cli/format/sparkline.h"
#include "cli/format/table.h"
#include "cli/format/terminal_text.h"

namespace warpwatch::cli {
namespace {

std::string Cycles(double cycles) {
  if (!(cycles > 0)) return "-";
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.0f", cycles);
  return buf;
}

}  // namespace

void PrintSeries(const v1::Series& series, std::ostream& out) {
  out << "series: " << TerminalSafe(series.series_id());
  if (!series.device_uuid().empty()) out << " on " << TerminalSafe(series.device_uuid());
  out << "\n";
  if (series.has_min_detectable_change()) {
    out << "noise: sigma "
        << (series.has_noise_sigma() ? FormatFinePercent(series.noise_sigma()) : "-")
        << " of a run's median between runs; smallest slowdown caught (95 %): "
        << FormatFinePercent(series.min_detectable_change());
    if (series.device_uuid().empty()) {
      out << " for a GPU with a full baseline (model estimate from " << series.noise_pairs()
          << " run pairs)";
    }
    out << "\n";
  }
  if (series.points().empty()) {
    out << "no points\n";
    return;
  }
  std::vector<double> medians;
  int64_t runs = 0;  // a downsampled week stands for several
  for (const v1::SeriesPoint& p : series.points()) {
    medians.push_back(p.median_seconds());
    runs += p.downsampled() ? p.runs() : 1;
  }
  out << "median: " << Sparkline(medians) << "  (" << runs << " runs, oldest first)\n";
  Table table({"RUN", "AT", "DEVICE", "MEDIAN", "P10", "P90", "CLOCK", "CYCLES", "THROTTLED",
               "OCC THEO/ACH", "VERIFIED"});
  for (const v1::SeriesPoint& p : series.points()) {
    // A week folded by summary retention: no run of its own.
    const std::string run = p.downsampled() ? "week (" + std::to_string(p.runs()) + " runs)"
                                            : std::to_string(p.run_id());
    table.AddRow({run, FormatTimestamp(p.at()), TerminalSafe(p.device_uuid()),
                  FormatSeconds(p.median_seconds()), FormatSeconds(p.p10_seconds()),
                  FormatSeconds(p.p90_seconds()),
                  p.median_sm_clock_mhz() > 0
                      ? std::to_string(static_cast<int>(p.median_sm_clock_mhz())) + " MHz"
                      : "-",
                  Cycles(p.median_cycles()), FormatPercent(p.throttled_fraction()),
                  FormatPercent(p.theoretical_occupancy()) + "/" +
                      (p.has_achieved_occupancy() ? FormatPercent(p.achieved_occupancy()) : "-"),
                  p.verified() ? "yes" : "no"});
  }
  table.Print(out);
  for (const v1::ChangePoint& c : series.change_points()) {
    out << "change point at run " << c.run_id() << " (" << FormatTimestamp(c.at())
        << "): " << FormatSeconds(c.median_before()) << " -> " << FormatSeconds(c.median_after())
        << " (" << FormatChange(c.relative_change()) << ")\n";
  }
  if (!series.regressions().empty()) {
    out << "regressions:\n";
    PrintRegressionTable({series.regressions().begin(), series.regressions().end()}, out);
  }
}

}  // namespace warpwatch::cli
