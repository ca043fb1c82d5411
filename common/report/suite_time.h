// File: common/report/suite_time.h
// Where a run's wall time went: per family, the engine's time on its points split by phase (setup
// and verification, timed samples, CUPTI duration pass, CUPTI counter pass), from each
// Measurement's wall_time. A suite with a time budget (the nightly two minutes) is tuned from it.
#ifndef WARPWATCH_COMMON_REPORT_SUITE_TIME_H_
#define WARPWATCH_COMMON_REPORT_SUITE_TIME_H_

#include <string>

#include "warpwatch/v1/measurement.pb.h"

namespace warpwatch::report {

// A Markdown section ("## Where the time went" and a table, families in catalog order, then a
// total row); "" when no measurement carries a wall time (runs recorded before it existed).
// The run's own span (finished_at - started_at) is printed too when both are set: what the
// points' sum leaves out is process start, device open and the run file. Pure; thread-safe.
std::string RenderSuiteTime(const v1::RunResult& run);

}  // namespace warpwatch::report

#endif  // WARPWATCH_COMMON_REPORT_SUITE_TIME_H_
