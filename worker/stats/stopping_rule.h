// The stopping rule of a point's sampling loop: take samples until the relative standard error is
// under the target noise (after a minimum number of samples and of GPU time), or at the maximum
// number of samples, or at the wall-clock timeout. CUDA-free: the engine hands in a Sampler that
// times one launch; tests hand in synthetic samples and a fake clock.
#ifndef WARPWATCH_WORKER_STATS_STOPPING_RULE_H_
#define WARPWATCH_WORKER_STATS_STOPPING_RULE_H_

#include <string>
#include <vector>

#include "common/status/status.h"

namespace warpwatch::worker {

// Produces one sample: the GPU time of one timed execution, in seconds.
class Sampler {
 public:
  virtual ~Sampler() = default;
  virtual StatusOr<double> TakeSample() = 0;
};

// Wall clock for the timeout (seconds from an arbitrary origin, monotonic).
class WallClock {
 public:
  virtual ~WallClock() = default;
  virtual double NowSeconds() = 0;
};

// std::chrono::steady_clock.
WallClock& SteadyWallClock();

struct StopSettings {
  int min_samples = 10;          // at least 1
  int max_samples = 1000;        // at least min_samples
  double target_noise = 0.005;   // relative standard error to stop at
  double min_gpu_time_seconds = 0.05;
  double timeout_seconds = 15;   // wall time of the sampling loop
};

// Values of stop_reason (Measurement.stop_reason).
inline constexpr const char* kStopNoise = "noise";
inline constexpr const char* kStopMaxSamples = "max_samples";
inline constexpr const char* kStopTimeout = "timeout";

struct SamplingResult {
  std::vector<double> samples;   // every sample, in order
  std::string stop_reason;       // one of the kStop* values; empty when status is not OK
  double rel_stderr = 0;         // of the samples at the stop
  Status status;                 // the sampler's first error; samples then holds those before it
};

// Runs `sampler` until the rule says stop. The noise rule is checked only once both
// min_samples and min_gpu_time_seconds are reached; max_samples and the timeout stop regardless
// (the timeout is checked after each sample, so at least one sample is always taken).
SamplingResult SampleUntilStable(Sampler& sampler, const StopSettings& settings, WallClock& clock);

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_STATS_STOPPING_RULE_H_
