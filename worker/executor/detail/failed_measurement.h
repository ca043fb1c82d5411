// Builds the Measurement the executor records for a point it could not get from the child.
#ifndef WARPWATCH_WORKER_EXECUTOR_DETAIL_FAILED_MEASUREMENT_H_
#define WARPWATCH_WORKER_EXECUTOR_DETAIL_FAILED_MEASUREMENT_H_

#include <string>

#include "common/catalog/plan.h"
#include "warpwatch/v1/measurement.pb.h"

namespace warpwatch::worker::detail {

// CaseKey of a point.
v1::CaseKey ToCaseKey(const catalog::Point& point);

// A FAILED measurement of `point` with `error`, stamped with the current time.
v1::Measurement FailedMeasurement(const catalog::Point& point, const std::string& error);

}  // namespace warpwatch::worker::detail

#endif  // WARPWATCH_WORKER_EXECUTOR_DETAIL_FAILED_MEASUREMENT_H_
