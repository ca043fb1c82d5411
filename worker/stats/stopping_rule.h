// The stopping rule of a point's sampling loop, after nvbench's "stdrel" criterion: take samples
// until the relative standard deviation of the samples (their noise, not the error of their mean)
// is under the target, or until that noise estimate has converged above the target (a kernel
// that is inherently noisy stops once more samples would not change what we know), never before
// a minimum number of samples and of GPU time; the sample cap and the wall-clock timeout bound it.
// CUDA-free: the engine hands in a Sampler that times one launch; tests hand in synthetic samples
// and a fake clock.
//
// Why not the relative standard error: it shrinks as 1/sqrt(n), so with a minimum GPU time it is
// under any target at the first check and the rule decided nothing (all 45 "noise" stops of the
// first H100 fixture happened on the first sample past the minimum time, at 0.01-0.13 %).
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
  int min_samples = 10;         // at least 1
  // The nightly defaults: nvbench's rule with a shorter minimum time and a lower sample cap
  // (nvbench: 0.5 s, no cap), so that the whole suite fits its two-minute budget. Why that costs
  // no between-run precision (in-run error stays far under the between-run spread) is measured in
  // docs/noise.md "Nightly budget".
  int max_samples = 2000;       // at least min_samples
  double target_noise = 0.005;  // relative standard deviation to stop at (nvbench --max-noise)
  double min_gpu_time_seconds = 0.1;  // nvbench --min-time
  double timeout_seconds = 15;        // wall time of the sampling loop (nvbench --timeout)
};

// Convergence check (nvbench): every kConvergenceStride samples once more than kConvergenceWindow
// noise values are tracked, the noise is converged when the standard deviation of the last
// kConvergenceWindow noise values around the current one is under kConvergedSpread of it.
inline constexpr int kConvergenceWindow = 64;
inline constexpr int kConvergenceStride = 16;
inline constexpr double kConvergedSpread = 0.05;

// Values of stop_reason (Measurement.stop_reason).
inline constexpr const char* kStopNoise = "noise";          // noise under the target
inline constexpr const char* kStopConverged = "converged";  // noise stable above the target
inline constexpr const char* kStopMaxSamples = "max_samples";
inline constexpr const char* kStopTimeout = "timeout";

struct SamplingResult {
  std::vector<double> samples;  // every sample, in order
  std::string stop_reason;      // one of the kStop* values; empty when status is not OK
  double rel_stddev = 0;        // noise of the samples at the stop
  double rel_stderr = 0;        // relative standard error of their mean at the stop
  Status status;                // the sampler's first error; samples then holds those before it
};

// Runs `sampler` until the rule says stop. The noise and convergence rules are checked only once
// both min_samples and min_gpu_time_seconds are reached; max_samples and the timeout stop
// regardless (the timeout is checked after each sample, so at least one sample is always taken).
SamplingResult SampleUntilStable(Sampler& sampler, const StopSettings& settings, WallClock& clock);

// The rule's decision on the samples so far, for callers that drive their own loop (the engine's
// sample groups). `noise_history` holds the relative standard deviation after each sample (the
// caller appends to it). Returns the stop reason, or "" to go on.
std::string StopReason(const std::vector<double>& samples, const std::vector<double>& noise_history,
                       double gpu_time_seconds, double elapsed_wall_seconds,
                       const StopSettings& settings);

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_STATS_STOPPING_RULE_H_
