// File: server/service/result_compare.h
// CompareRuns' answer from two runs' stored measurements, through the detector's CompareRuns
// (server/detect/compare_runs.h): verdicts, U-test p-values and cycles, plus the clocks and
// occupancy of both runs side by side.
#ifndef WARPWATCH_SERVER_SERVICE_RESULT_COMPARE_H_
#define WARPWATCH_SERVER_SERVICE_RESULT_COMPARE_H_

#include <vector>

#include "common/status/status.h"
#include "warpwatch/v1/measurement.pb.h"
#include "warpwatch/v1/result.pb.h"

namespace warpwatch::server {

// `base` and `new_run` with their measurements (raw samples included for the U-test). Cases are
// listed in the base run's order; cases measured by one run only are named in only_in_*.
// INVALID_ARGUMENT from the detector (a run listing a case twice: not possible for stored runs).
StatusOr<v1::CompareRunsResponse> CompareStoredRuns(const v1::Run& base,
                                                    const std::vector<v1::Measurement>& base_points,
                                                    const v1::Run& new_run,
                                                    const std::vector<v1::Measurement>& new_points);

}  // namespace warpwatch::server

#endif  // WARPWATCH_SERVER_SERVICE_RESULT_COMPARE_H_
