// File: tests/server/gpu_health/power/night_views.cc
#include "tests/server/gpu_health/power/night_views.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace warpwatch::server::gpu_health::power {

NightJudgement JudgeArrivals(const std::vector<detect::RunPoint>& arrivals, size_t first_view,
                             const detect::FleetConfig& config, double case_noise_relative) {
  NightJudgement out;
  out.judged.assign(arrivals.size(), false);
  out.outlier.assign(arrivals.size(), std::nullopt);
  std::unordered_map<int64_t, size_t> index;  // run id -> arrival
  for (size_t a = 0; a < arrivals.size(); ++a) index[arrivals[a].run_id] = a;
  std::vector<detect::RunPoint> in;
  in.reserve(arrivals.size());
  for (const detect::RunPoint& p : arrivals) {
    in.push_back(p);
    if (in.size() < first_view) continue;
    const detect::FleetView view = detect::FindFleetOutliers(in, config, case_noise_relative);
    if (!view.judged) continue;
    for (const detect::DeviceJudgement& d : view.devices) {
      const size_t a = index.at(d.run_id);
      out.judged[a] = true;
      // The first view that sees it reports it; later views skip it, none retracts it.
      if (d.outlier && !out.outlier[a]) out.outlier[a] = d;
    }
  }
  return out;
}

size_t FirstJudgingView(double judge_from, int gpus) {
  if (judge_from <= 0) return 1;
  // The small margin keeps 0.75 x 8 at 6, not 7, whatever the rounding of the product.
  const double k = std::ceil(judge_from * static_cast<double>(gpus) - 1e-9);
  return static_cast<size_t>(std::max(1.0, k));
}

}  // namespace warpwatch::server::gpu_health::power
