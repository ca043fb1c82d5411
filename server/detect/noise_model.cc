// File: server/detect/noise_model.cc
#include "server/detect/noise_model.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>

#include "server/detect/baseline.h"
#include "server/detect/detail/distributions.h"
#include "server/detect/robust_stats.h"

namespace warpwatch::server::detect {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kZ95 = 1.6448536269514722;  // Phi^-1(0.95): the power asked of the MDC

// t with P(|T| >= t) = p (bisection on the two-sided tail; p in (0, 1)).
double TwoSidedCritical(double p, double dof) {
  double lo = 0, hi = 1;
  while (detail::StudentTTwoSidedP(hi, dof) > p && hi < 1e6) hi *= 2;
  for (int i = 0; i < 100; ++i) {
    const double mid = (lo + hi) / 2;
    if (detail::StudentTTwoSidedP(mid, dof) > p) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return hi;
}

// Phi^-1((1 + q) / 2): the |N(0, 1)| quantile q (bisection on erfc; q in (0, 1)).
double AbsNormalQuantile(double q) {
  double lo = 0, hi = 10;
  for (int i = 0; i < 100; ++i) {
    const double mid = (lo + hi) / 2;
    if (1 - std::erfc(mid / std::sqrt(2.0)) < q) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return (lo + hi) / 2;
}

// The q-quantile of `values` (linear interpolation); NaN when empty.
double Quantile(std::vector<double> values, double q) {
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::sort(values.begin(), values.end());
  const double position = q * static_cast<double>(values.size() - 1);
  const size_t below = static_cast<size_t>(position);
  const double above = below + 1 < values.size() ? values[below + 1] : values[below];
  return values[below] + (position - static_cast<double>(below)) * (above - values[below]);
}

}  // namespace

NoiseEstimate SuccessiveDifferenceNoise(const std::vector<RunPoint>& history,
                                        const DetectionConfig& config) {
  std::map<std::string, double> last;  // device -> its previous good median
  std::map<std::string, bool> paired;
  std::vector<double> differences;
  for (const RunPoint& p : history) {
    if (!IsGoodRun(p, config)) continue;
    auto it = last.find(p.device_uuid);
    if (it != last.end()) {
      differences.push_back(std::fabs(p.median_seconds / it->second - 1));
      paired[p.device_uuid] = true;
    }
    last[p.device_uuid] = p.median_seconds;
  }
  NoiseEstimate e;
  e.pairs = differences.size();
  e.devices = paired.size();
  if (!differences.empty()) {
    const double q = config.noise_quantile;
    e.sigma_relative = (q == 0.5 ? kMadToSigma * Median(std::move(differences))
                                 : Quantile(std::move(differences), q) / AbsNormalQuantile(q)) /
                       std::sqrt(2.0);
  }
  return e;
}

SeriesNoise CombineNoise(const NoiseEstimate& model, const NoiseEstimate& own,
                         const DetectionConfig& config) {
  SeriesNoise n;
  double weighted = 0;
  if (model.known()) {
    n.model_sigma = model.sigma_relative;
    n.model_pairs = model.pairs;
    n.model_devices = model.devices;
    n.model_weight = std::min(static_cast<double>(model.pairs), config.model_noise_weight);
    weighted += n.model_weight * n.model_sigma * n.model_sigma;
  }
  if (own.known()) {
    n.own_sigma = own.sigma_relative;
    n.own_weight = static_cast<double>(own.pairs);
    weighted += n.own_weight * n.own_sigma * n.own_sigma;
  }
  const double weight = n.model_weight + n.own_weight;
  const double pooled = weight > 0 ? std::sqrt(weighted / weight) : 0;
  n.floored = !(pooled > config.noise_floor_relative);
  n.sigma_relative = n.floored ? config.noise_floor_relative : pooled;
  n.dof =
      std::clamp(config.noise_dof_per_pair * weight, config.min_noise_dof, config.max_noise_dof);
  return n;
}

SeriesNoise KeepSigma(SeriesNoise noise, double sigma_relative, const DetectionConfig& config) {
  if (!std::isfinite(sigma_relative) || !(sigma_relative > 0)) return noise;
  noise.kept = true;
  noise.floored = !(sigma_relative > config.noise_floor_relative);
  noise.sigma_relative = noise.floored ? config.noise_floor_relative : sigma_relative;
  return noise;
}

double PredictionSigma(const SeriesNoise& noise, size_t baseline_runs) {
  const double k = static_cast<double>(std::max<size_t>(baseline_runs, 1));
  return noise.sigma_relative * std::sqrt(1 + kPi / (2 * k));
}

double ChangePValue(double change, const SeriesNoise& noise, size_t baseline_runs) {
  if (std::isnan(change)) return change;
  if (change == 0) return 1;
  return detail::StudentTTwoSidedP(change / PredictionSigma(noise, baseline_runs), noise.dof);
}

double MinimumDetectableChange(const SeriesNoise& noise, size_t baseline_runs, size_t decisions,
                               const DetectionConfig& config) {
  const double alpha =
      config.false_alarm_rate / static_cast<double>(std::max<size_t>(decisions, 1));
  const double t = TwoSidedCritical(alpha, noise.dof);
  return std::max(config.min_relative_change, (t + kZ95) * PredictionSigma(noise, baseline_runs));
}

std::string NoiseText(const SeriesNoise& noise) {
  char buffer[256];
  std::string text;
  std::snprintf(buffer, sizeof(buffer), "sigma %.3f %%%s (", 100 * noise.sigma_relative,
                noise.floored ? " (the floor)" : "");
  text += buffer;
  if (noise.kept) text += "kept from the finding's first run; now ";
  if (std::isnan(noise.model_sigma)) {
    text += "no model estimate";
  } else {
    std::snprintf(buffer, sizeof(buffer), "model %.3f %% from %zu pairs on %zu GPUs",
                  100 * noise.model_sigma, noise.model_pairs, noise.model_devices);
    text += buffer;
  }
  if (std::isnan(noise.own_sigma)) {
    text += ", no own pairs";
  } else {
    std::snprintf(buffer, sizeof(buffer), ", own %.3f %% from %.0f pairs", 100 * noise.own_sigma,
                  noise.own_weight);
    text += buffer;
  }
  std::snprintf(buffer, sizeof(buffer), "), t with %.0f dof", noise.dof);
  text += buffer;
  return text;
}

}  // namespace warpwatch::server::detect
