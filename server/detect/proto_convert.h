// The only place the detector meets protobuf: a stored v1::Measurement as a RunPoint/CasePoint.
#ifndef WARPWATCH_SERVER_DETECT_PROTO_CONVERT_H_
#define WARPWATCH_SERVER_DETECT_PROTO_CONVERT_H_

#include <string>

#include "server/detect/compare_runs.h"
#include "server/detect/run_point.h"
#include "warpwatch/v1/measurement.pb.h"

namespace warpwatch::server::detect {

// ok = status OK; median = stats.median; clock = median_sm_clock_mhz; run_id = m.run_id().
// Raw samples are copied only when `with_samples` (the U-test is their only reader).
RunPoint RunPointFromMeasurement(const v1::Measurement& m, const std::string& device_uuid,
                                 bool with_samples);

// Case key = m.case_().canonical().
CasePoint CasePointFromMeasurement(const v1::Measurement& m, const std::string& device_uuid,
                                   bool with_samples);

}  // namespace warpwatch::server::detect

#endif  // WARPWATCH_SERVER_DETECT_PROTO_CONVERT_H_
