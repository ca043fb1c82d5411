// Summary statistics of sample times.
#include "worker/stats/sample_stats.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace warpwatch::worker {
namespace {

double Mean(const std::vector<double>& s) {
  return s.empty() ? 0.0 : std::accumulate(s.begin(), s.end(), 0.0) / s.size();
}

double StdDev(const std::vector<double>& s, double mean) {
  if (s.size() < 2) return 0.0;
  double sum_sq = 0;
  for (double x : s) sum_sq += (x - mean) * (x - mean);
  return std::sqrt(sum_sq / static_cast<double>(s.size() - 1));
}

}  // namespace

double Percentile(std::vector<double> samples, double q) {
  if (samples.empty()) return 0.0;
  std::sort(samples.begin(), samples.end());
  q = std::clamp(q, 0.0, 100.0);
  double rank = q / 100.0 * static_cast<double>(samples.size() - 1);
  size_t lo = static_cast<size_t>(std::floor(rank));
  size_t hi = std::min(lo + 1, samples.size() - 1);
  double frac = rank - static_cast<double>(lo);
  return samples[lo] + (samples[hi] - samples[lo]) * frac;
}

double RelativeStandardError(const std::vector<double>& samples) {
  if (samples.size() < 2) return 0.0;
  double mean = Mean(samples);
  if (mean == 0.0) return 0.0;
  return StdDev(samples, mean) / std::sqrt(static_cast<double>(samples.size())) / std::fabs(mean);
}

double RelativeStandardDeviation(const std::vector<double>& samples) {
  if (samples.size() < 2) return 0.0;
  double mean = Mean(samples);
  if (mean == 0.0) return 0.0;
  return StdDev(samples, mean) / std::fabs(mean);
}

void RunningStats::Add(double x) {
  ++n_;
  const double delta = x - mean_;
  mean_ += delta / static_cast<double>(n_);
  m2_ += delta * (x - mean_);
}

double RunningStats::RelativeStdDev() const {
  if (n_ < 2 || mean_ == 0.0) return 0.0;
  return std::sqrt(std::max(0.0, m2_) / static_cast<double>(n_ - 1)) / std::fabs(mean_);
}

v1::SampleStats ComputeSampleStats(const std::vector<double>& samples) {
  v1::SampleStats stats;
  if (samples.empty()) return stats;
  double mean = Mean(samples);
  auto [min_it, max_it] = std::minmax_element(samples.begin(), samples.end());
  stats.set_median(Percentile(samples, 50));
  stats.set_mean(mean);
  stats.set_min(*min_it);
  stats.set_max(*max_it);
  stats.set_stddev(StdDev(samples, mean));
  stats.set_p10(Percentile(samples, 10));
  stats.set_p90(Percentile(samples, 90));
  stats.set_rel_stderr(RelativeStandardError(samples));
  return stats;
}

}  // namespace warpwatch::worker
