// The sampling loop's stopping rule.
#include "worker/stats/stopping_rule.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "worker/stats/sample_stats.h"

namespace warpwatch::worker {
namespace {

class SteadyClock : public WallClock {
 public:
  double NowSeconds() override {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }
};

// Whether the last kConvergenceWindow noise values spread by less than kConvergedSpread of the
// current one (standard deviation taken around the current value, as nvbench does).
bool NoiseConverged(const std::vector<double>& history) {
  if (static_cast<int>(history.size()) <= kConvergenceWindow) return false;
  const double current = history.back();
  if (!(current > 0)) return false;
  double sum_sq = 0;
  for (size_t i = history.size() - kConvergenceWindow; i < history.size(); ++i) {
    sum_sq += (history[i] - current) * (history[i] - current);
  }
  const double spread = std::sqrt(sum_sq / (kConvergenceWindow - 1));
  return spread / current < kConvergedSpread;
}

}  // namespace

WallClock& SteadyWallClock() {
  static SteadyClock* clock = new SteadyClock();
  return *clock;
}

std::string StopReason(const std::vector<double>& samples, const std::vector<double>& noise_history,
                       double gpu_time_seconds, double elapsed_wall_seconds,
                       const StopSettings& settings) {
  const int min_samples = std::max(1, settings.min_samples);
  const int max_samples = std::max(min_samples, settings.max_samples);
  const int n = static_cast<int>(samples.size());
  if (n >= min_samples && gpu_time_seconds >= settings.min_gpu_time_seconds &&
      !noise_history.empty()) {
    if (noise_history.back() < settings.target_noise) return kStopNoise;
    if (n % kConvergenceStride == 0 && NoiseConverged(noise_history)) return kStopConverged;
  }
  if (n >= max_samples) return kStopMaxSamples;
  if (elapsed_wall_seconds >= settings.timeout_seconds) return kStopTimeout;
  return "";
}

SamplingResult SampleUntilStable(Sampler& sampler, const StopSettings& settings, WallClock& clock) {
  SamplingResult result;
  const double start = clock.NowSeconds();
  std::vector<double> noise;
  double gpu_time = 0;
  RunningStats running;  // the noise after each sample in O(1)
  while (true) {
    StatusOr<double> sample = sampler.TakeSample();
    if (!sample.ok()) {
      result.status = sample.status();
      break;
    }
    result.samples.push_back(*sample);
    gpu_time += *sample;
    running.Add(*sample);
    noise.push_back(running.RelativeStdDev());
    result.stop_reason =
        StopReason(result.samples, noise, gpu_time, clock.NowSeconds() - start, settings);
    if (!result.stop_reason.empty()) break;
  }
  result.rel_stddev = RelativeStandardDeviation(result.samples);
  result.rel_stderr = RelativeStandardError(result.samples);
  return result;
}

}  // namespace warpwatch::worker
