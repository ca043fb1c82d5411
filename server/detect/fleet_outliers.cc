// Leave-one-out robust z across the devices of one model.
#include "server/detect/fleet_outliers.h"

#include <algorithm>
#include <cmath>

#include "server/detect/baseline.h"
#include "server/detect/leave_one_out.h"
#include "server/detect/robust_stats.h"

namespace warpwatch::server::detect {

FleetView FindFleetOutliers(const std::vector<RunPoint>& devices, const FleetConfig& config,
                            double case_noise_relative) {
  FleetView view;
  DetectionConfig goodness;
  goodness.max_throttled_fraction = config.max_throttled_fraction;
  std::vector<const RunPoint*> good;
  for (const RunPoint& device : devices) {
    const std::string why = WhyNotGood(device, goodness);
    if (why.empty()) {
      good.push_back(&device);
    } else {
      view.ignored.push_back(device.device_uuid + ": " + why);
    }
  }
  if (good.size() < config.min_devices) {
    view.reason = std::to_string(good.size()) + " good devices, " +
                  std::to_string(config.min_devices) + " needed";
    return view;
  }
  if (std::isnan(case_noise_relative)) {
    view.reason =
        "no between-run noise of the case on the model yet (the noise model has no pair"
        " of one GPU's runs): " +
        std::to_string(good.size() - 1) + " peers' spread alone is no noise estimate";
    return view;
  }
  view.judged = true;
  std::vector<double> medians;
  medians.reserve(good.size());
  for (const RunPoint* device : good) medians.push_back(device->median_seconds);
  const std::vector<RobustScale> scales = LeaveOneOutScales(medians, config.mad_floor_relative);
  for (size_t i = 0; i < good.size(); ++i) {
    RobustScale scale = scales[i];
    if (case_noise_relative > 0) {
      scale.sigma = std::max(scale.sigma, case_noise_relative * scale.center);
    }
    DeviceJudgement d;
    d.device_uuid = good[i]->device_uuid;
    d.run_id = good[i]->run_id;
    d.median_seconds = good[i]->median_seconds;
    d.others_median = scale.center;
    d.others_sigma = scale.sigma;
    d.change = d.median_seconds / scale.center - 1;
    d.z = RobustZ(d.median_seconds, scale);
    if (d.z >= config.z_threshold && d.change >= config.min_relative_change) {
      d.outlier = true;
      d.direction = Verdict::kSlower;
    } else if (d.z <= -config.z_threshold && d.change <= -config.min_relative_change) {
      d.outlier = true;
      d.direction = Verdict::kFaster;
    }
    view.devices.push_back(d);
  }
  return view;
}

}  // namespace warpwatch::server::detect
