// v1::Measurement -> RunPoint.
#include "server/detect/proto_convert.h"

namespace warpwatch::server::detect {

RunPoint RunPointFromMeasurement(const v1::Measurement& m, const std::string& device_uuid,
                                 bool with_samples) {
  RunPoint p;
  p.run_id = m.run_id();
  p.device_uuid = device_uuid;
  p.ok = m.status() == v1::POINT_STATUS_OK;
  p.verified = m.verified();
  p.median_seconds = m.stats().median();
  p.sm_clock_mhz = m.median_sm_clock_mhz();
  p.throttled_fraction = m.throttled_fraction();
  if (with_samples)
    p.samples_seconds.assign(m.samples_seconds().begin(), m.samples_seconds().end());
  return p;
}

CasePoint CasePointFromMeasurement(const v1::Measurement& m, const std::string& device_uuid,
                                   bool with_samples) {
  return CasePoint{m.case_().canonical(), RunPointFromMeasurement(m, device_uuid, with_samples)};
}

}  // namespace warpwatch::server::detect
