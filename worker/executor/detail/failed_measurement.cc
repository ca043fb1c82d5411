// FAILED measurements recorded by the executor itself.
#include "worker/executor/detail/failed_measurement.h"

#include <google/protobuf/util/time_util.h>

namespace warpwatch::worker::detail {

v1::CaseKey ToCaseKey(const catalog::Point& point) {
  v1::CaseKey key;
  key.set_family(point.family);
  key.set_variant(point.variant);
  for (const auto& [name, value] : point.params) (*key.mutable_params())[name] = value;
  key.set_canonical(point.Canonical());
  return key;
}

v1::Measurement FailedMeasurement(const catalog::Point& point, const std::string& error) {
  v1::Measurement m;
  *m.mutable_case_() = ToCaseKey(point);
  m.set_status(v1::POINT_STATUS_FAILED);
  m.set_error(error);
  *m.mutable_measured_at() = google::protobuf::util::TimeUtil::GetCurrentTime();
  return m;
}

}  // namespace warpwatch::worker::detail
