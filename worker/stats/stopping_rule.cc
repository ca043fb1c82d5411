// The sampling loop's stopping rule.
#include "worker/stats/stopping_rule.h"

#include <algorithm>
#include <chrono>

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

}  // namespace

WallClock& SteadyWallClock() {
  static SteadyClock* clock = new SteadyClock();
  return *clock;
}

SamplingResult SampleUntilStable(Sampler& sampler, const StopSettings& settings,
                                 WallClock& clock) {
  SamplingResult result;
  const int min_samples = std::max(1, settings.min_samples);
  const int max_samples = std::max(min_samples, settings.max_samples);
  const double start = clock.NowSeconds();
  double gpu_time = 0;
  while (true) {
    StatusOr<double> sample = sampler.TakeSample();
    if (!sample.ok()) {
      result.status = sample.status();
      break;
    }
    result.samples.push_back(*sample);
    gpu_time += *sample;
    const int n = static_cast<int>(result.samples.size());
    if (n >= min_samples && gpu_time >= settings.min_gpu_time_seconds) {
      // Checked every sample: O(n) each, negligible next to a kernel launch and a sync.
      if (RelativeStandardError(result.samples) < settings.target_noise) {
        result.stop_reason = kStopNoise;
        break;
      }
    }
    if (n >= max_samples) {
      result.stop_reason = kStopMaxSamples;
      break;
    }
    if (clock.NowSeconds() - start >= settings.timeout_seconds) {
      result.stop_reason = kStopTimeout;
      break;
    }
  }
  result.rel_stderr = RelativeStandardError(result.samples);
  return result;
}

}  // namespace warpwatch::worker
