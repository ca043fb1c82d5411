// File: cli/format/run_view.h
// How runs and their measurements look to people: the `runs` and `results` tables.
#ifndef WARPWATCH_CLI_FORMAT_RUN_VIEW_H_
#define WARPWATCH_CLI_FORMAT_RUN_VIEW_H_

#include <ostream>
#include <vector>

#include "warpwatch/v1/measurement.pb.h"

namespace warpwatch::cli {

// ID JOB STATE GPU DEVICE HOST POINTS STARTED, one row per run (JOB "upload" for uploaded runs).
// "no runs" when empty.
// "140/144 (3 too_few_runs, 1 throttled)": cases judged of the run's cases and why the rest were
// not; the analysis state while not DONE; "-" before any analysis.
std::string CoverageLabel(const v1::AnalysisCoverage& coverage);

void PrintRunTable(const std::vector<v1::Run>& runs, std::ostream& out);

// CASE STATUS MEDIAN P10 P90 GB/S CLOCK OCC(THEO/ACH) VERIFIED, one row per measurement, and
// the error of failed points. "no measurements" when empty.
void PrintMeasurementTable(const std::vector<v1::Measurement>& measurements, std::ostream& out);

}  // namespace warpwatch::cli

#endif  // WARPWATCH_CLI_FORMAT_RUN_VIEW_H_
