// Median, MAD and robust z-score.
#include "server/detect/robust_stats.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace warpwatch::server::detect {

double Median(std::vector<double> values) {
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  const size_t mid = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + mid, values.end());
  const double upper = values[mid];
  if (values.size() % 2 == 1) return upper;
  const double lower = *std::max_element(values.begin(), values.begin() + mid);
  return lower + (upper - lower) / 2;
}

double MedianAbsoluteDeviation(const std::vector<double>& values) {
  const double center = Median(values);
  std::vector<double> deviations;
  deviations.reserve(values.size());
  for (double v : values) deviations.push_back(std::fabs(v - center));
  return Median(std::move(deviations));
}

RobustScale ScaleFrom(double center, double mad, double relative_floor) {
  RobustScale scale;
  scale.center = center;
  const double mad_sigma = kMadToSigma * mad;
  const double floor = relative_floor * std::fabs(center);
  scale.floored = !(mad_sigma >= floor);  // also true when NaN, so the result is never trusted
  scale.sigma = scale.floored ? floor : mad_sigma;
  if (std::isnan(center)) scale.sigma = std::numeric_limits<double>::quiet_NaN();
  return scale;
}

RobustScale RobustScaleOf(const std::vector<double>& values, double relative_floor) {
  return ScaleFrom(Median(values), MedianAbsoluteDeviation(values), relative_floor);
}

double RobustZ(double x, const RobustScale& scale) {
  const double diff = x - scale.center;
  if (diff == 0) return 0;
  if (scale.sigma == 0) {
    return diff > 0 ? std::numeric_limits<double>::infinity()
                    : -std::numeric_limits<double>::infinity();
  }
  return diff / scale.sigma;
}

bool AllPositiveFinite(const std::vector<double>& values) {
  return std::all_of(values.begin(), values.end(),
                     [](double v) { return std::isfinite(v) && v > 0; });
}

}  // namespace warpwatch::server::detect
