// A point timed by the engine, read back as a bench timing.
#include "bench/detail/case_timer.h"

#include "warpwatch/v1/job.pb.h"
#include "warpwatch/v1/measurement.pb.h"

namespace warpwatch::bench {

worker::EngineSettings BenchSettings(int max_samples) {
  v1::MeasurementSettings settings;
  if (max_samples > 0) settings.set_max_samples(max_samples);
  return worker::ResolveSettings(settings);
}

StatusOr<CaseTiming> TimeCase(worker::PointEngine& engine, const catalog::Point& point,
                              const worker::EngineSettings& settings) {
  const worker::PointResult result = engine.Measure(point, settings);
  const v1::Measurement& m = result.measurement;
  const std::string key = point.Canonical();
  if (m.status() != v1::POINT_STATUS_OK) {
    return InternalError(key + ": " + v1::PointStatus_Name(m.status()) + ": " + m.error());
  }
  if (!m.verified()) return InternalError(key + ": measured but not verified");
  CaseTiming timing;
  timing.key = key;
  timing.kernel_name = m.kernel_name();
  timing.runs = static_cast<int>(m.sample_count());
  timing.median_seconds = m.stats().median();
  timing.rel_stderr = m.stats().rel_stderr();
  timing.stop_reason = m.stop_reason();
  timing.bytes = m.bytes();
  return timing;
}

}  // namespace warpwatch::bench
