// Fills a Measurement's sample-derived fields from the sampling loop's result. CUDA-free.
#ifndef WARPWATCH_WORKER_ENGINE_SAMPLE_SUMMARY_H_
#define WARPWATCH_WORKER_ENGINE_SAMPLE_SUMMARY_H_

#include <cstdint>
#include <vector>

#include "warpwatch/v1/measurement.pb.h"
#include "worker/stats/stopping_rule.h"

namespace warpwatch::worker {

struct SampleContext {
  std::vector<double> clocks_mhz;    // one per sample (0 = unknown), may be empty
  std::vector<uint64_t> reasons;     // throttle reason bits per sample, may be empty
  double bytes = 0;                  // useful work of one run
  double flops = 0;
  double bus_bytes = 0;              // a collective's bus bytes per run (0 = none)
  double peak_bytes_per_second = 0;  // theoretical bandwidth (0 = unknown)
  // The SM clock the GPU is set to run at (Telemetry::ReadClockSetting; 0 = unknown): what the
  // samples' clocks are judged against (MarkThrottled).
  double setting_clock_mhz = 0;
};

// Sets samples_seconds, sample_sm_clock_mhz, sample_throttled, throttled_fraction, stats,
// median_sm_clock_mhz (of the known clocks), bytes, flops, gbps, gflops (from the median),
// pct_of_peak_bandwidth, stop_reason and rel_stddev; bus_bytes and bus_gbps when bus_bytes > 0.
void SummarizeSamples(const SamplingResult& sampling, const SampleContext& context,
                      v1::Measurement* m);

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_ENGINE_SAMPLE_SUMMARY_H_
