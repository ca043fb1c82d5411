// Summary statistics of a series of sample times. CUDA-free so the CPU tests cover it.
#ifndef WARPWATCH_WORKER_STATS_SAMPLE_STATS_H_
#define WARPWATCH_WORKER_STATS_SAMPLE_STATS_H_

#include <cstdint>
#include <vector>

#include "warpwatch/v1/measurement.pb.h"

namespace warpwatch::worker {

// Median, mean, min, max, sample standard deviation (n - 1), p10, p90 (linear interpolation between
// closest ranks, as numpy's default) and the relative standard error stddev / sqrt(n) / mean.
// An empty input gives all zeros; a single sample has stddev 0. rel_stderr is 0 when mean is 0.
v1::SampleStats ComputeSampleStats(const std::vector<double>& samples);

// Percentile q in [0, 100] of `samples` by linear interpolation; 0 for an empty input.
double Percentile(std::vector<double> samples, double q);

// Relative standard error of the samples (0 for fewer than 2 samples or a zero mean).
double RelativeStandardError(const std::vector<double>& samples);

// Relative standard deviation stddev / mean (0 for fewer than 2 samples or a zero mean).
double RelativeStandardDeviation(const std::vector<double>& samples);

// Mean and variance updated one sample at a time (Welford), for the stopping rule's per-sample
// noise without an O(n) pass per sample.
class RunningStats {
 public:
  void Add(double x);
  int64_t count() const { return n_; }
  double mean() const { return mean_; }
  // Sample standard deviation / mean; 0 for fewer than 2 samples or a zero mean.
  double RelativeStdDev() const;

 private:
  int64_t n_ = 0;
  double mean_ = 0;
  double m2_ = 0;
};

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_STATS_SAMPLE_STATS_H_
