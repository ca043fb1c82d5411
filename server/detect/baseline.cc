// Good runs and the rolling baseline.
#include "server/detect/baseline.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace warpwatch::server::detect {

std::string WhyNotGood(const RunPoint& point, const DetectionConfig& config) {
  if (!point.ok) return "not measured (failed or skipped)";
  if (!point.verified) return "unverified";
  if (!(point.median_seconds > 0) || !std::isfinite(point.median_seconds)) {
    return "median is not a positive finite time";
  }
  if (!(point.throttled_fraction <= config.max_throttled_fraction)) {
    char buffer[64];
    std::snprintf(buffer, sizeof(buffer), "throttled (%.0f %% of samples)",
                  100 * point.throttled_fraction);
    return buffer;
  }
  return "";
}

namespace {

std::vector<RunPoint> NewestGood(const std::vector<RunPoint>& history,
                                 const DetectionConfig& config, const std::string* device_uuid) {
  std::vector<RunPoint> baseline;
  for (auto it = history.rbegin(); it != history.rend(); ++it) {
    if (baseline.size() >= config.baseline_runs) break;
    if (device_uuid != nullptr && it->device_uuid != *device_uuid) continue;
    if (IsGoodRun(*it, config)) baseline.push_back(*it);
  }
  std::reverse(baseline.begin(), baseline.end());
  return baseline;
}

}  // namespace

std::vector<RunPoint> SelectBaseline(const std::vector<RunPoint>& history,
                                     const DetectionConfig& config,
                                     const std::string& device_uuid) {
  if (config.same_device_only && !device_uuid.empty()) {
    return NewestGood(history, config, &device_uuid);
  }
  return NewestGood(history, config, nullptr);
}

}  // namespace warpwatch::server::detect
