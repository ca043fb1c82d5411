// Which runs of a series may serve as a baseline, and the rolling baseline: the last N good runs.
// A pinned baseline (a chosen set of runs) can be passed to DecideSeries instead.
#ifndef WARPWATCH_SERVER_DETECT_BASELINE_H_
#define WARPWATCH_SERVER_DETECT_BASELINE_H_

#include <string>
#include <vector>

#include "server/detect/detection_config.h"
#include "server/detect/run_point.h"

namespace warpwatch::server::detect {

// Empty when `point` is good (measured, verified, throttled_fraction <= the config's maximum, a
// positive finite median); otherwise why not ("unverified", "throttled 30 %", ...).
std::string WhyNotGood(const RunPoint& point, const DetectionConfig& config);
inline bool IsGoodRun(const RunPoint& point, const DetectionConfig& config) {
  return WhyNotGood(point, config).empty();
}

// The newest config.baseline_runs good runs of `history` (oldest first, as stored), returned
// oldest first. Bad runs are skipped, never counted. May return fewer (or none).
// With config.same_device_only and a non-empty `device_uuid`: only that device's runs (however
// few: the caller says UNSURE below config.min_baseline_runs), else every device's.
std::vector<RunPoint> SelectBaseline(const std::vector<RunPoint>& history,
                                     const DetectionConfig& config,
                                     const std::string& device_uuid = "");

}  // namespace warpwatch::server::detect

#endif  // WARPWATCH_SERVER_DETECT_BASELINE_H_
