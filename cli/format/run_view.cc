// File: cli/format/run_view.cc
#include "cli/format/run_view.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>

#include "cli/format/duration.h"
#include "cli/format/job_view.h"
#include "cli/format/result_units.h"
#include "cli/format/table.h"
#include "cli/format/terminal_text.h"

namespace warpwatch::cli {
namespace {

std::string PointStatusLabel(v1::PointStatus status) {
  switch (status) {
    case v1::POINT_STATUS_OK:
      return "OK";
    case v1::POINT_STATUS_FAILED:
      return "FAILED";
    case v1::POINT_STATUS_SKIPPED:
      return "SKIPPED";
    default:
      return "-";
  }
}

std::string Fixed(double value, int decimals) {
  if (!(value > 0)) return "-";
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.*f", decimals, value);
  return buf;
}

}  // namespace

void PrintRunTable(const std::vector<v1::Run>& runs, std::ostream& out) {
  if (runs.empty()) {
    out << "no runs\n";
    return;
  }
  Table table({"ID", "JOB", "STATE", "GPU", "DEVICE", "HOST", "POINTS", "STARTED", "JUDGED"});
  for (const v1::Run& run : runs) {
    const v1::RunEnvironment& env = run.environment();
    table.AddRow({std::to_string(run.id()),
                  run.job_id() == 0 ? "upload" : std::to_string(run.job_id()),
                  JobStateLabel(run.state()), TerminalSafe(env.device().name()),
                  TerminalSafe(env.device().uuid()), TerminalSafe(env.hostname()),
                  std::to_string(run.measurement_count()), FormatTimestamp(run.started_at()),
                  CoverageLabel(run.analysis())});
  }
  table.Print(out);
}

std::string CoverageLabel(const v1::AnalysisCoverage& coverage) {
  if (coverage.state().empty()) return "-";
  if (coverage.state() != "DONE") return TerminalSafe(coverage.state());
  std::string label = std::to_string(coverage.judged()) + "/" + std::to_string(coverage.cases());
  if (coverage.unsure().empty()) return label;
  // Why the rest were not judged, largest first ("12 too_few_runs, 2 throttled").
  std::vector<std::pair<int32_t, std::string>> reasons;
  for (const auto& [reason, count] : coverage.unsure()) reasons.emplace_back(count, reason);
  std::sort(reasons.rbegin(), reasons.rend());
  label += " (";
  for (size_t i = 0; i < reasons.size(); ++i) {
    if (i > 0) label += ", ";
    label += std::to_string(reasons[i].first) + " " + TerminalSafe(reasons[i].second);
  }
  return label + ")";
}

void PrintMeasurementTable(const std::vector<v1::Measurement>& measurements, std::ostream& out) {
  if (measurements.empty()) {
    out << "no measurements\n";
    return;
  }
  Table table({"CASE", "STATUS", "MEDIAN", "P10", "P90", "GB/S", "CLOCK", "OCC THEO/ACH",
               "VERIFIED", "DETECTS"});
  std::vector<std::string> errors;
  for (const v1::Measurement& m : measurements) {
    const v1::Occupancy& oc = m.occupancy();
    const std::string occupancy =
        FormatPercent(oc.theoretical()) + "/" + (oc.has_achieved() ? FormatPercent(oc.achieved()) : "-");
    table.AddRow(
        {TerminalSafe(m.case_().canonical()), PointStatusLabel(m.status()),
         FormatSeconds(m.stats().median()), FormatSeconds(m.stats().p10()),
         FormatSeconds(m.stats().p90()), Fixed(m.gbps(), 1),
         m.median_sm_clock_mhz() > 0 ? Fixed(m.median_sm_clock_mhz(), 0) + " MHz" : "-", occupancy,
         m.verified() ? "yes" : "no",
         // the smallest slowdown the detector catches on this series and GPU
         m.has_min_detectable_change() ? FormatFinePercent(m.min_detectable_change()) : "-"});
    if (!m.error().empty()) {
      errors.push_back(TerminalSafe(m.case_().canonical()) + ": " + TerminalSafe(m.error()));
    }
  }
  table.Print(out);
  for (const std::string& error : errors) out << "error: " << error << "\n";
}

}  // namespace warpwatch::cli
