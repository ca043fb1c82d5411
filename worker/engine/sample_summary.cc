// Sample-derived fields of a Measurement.
#include "worker/engine/sample_summary.h"

#include "worker/stats/sample_stats.h"
#include "worker/stats/throttle.h"
#include "worker/stats/throughput.h"

namespace warpwatch::worker {

void SummarizeSamples(const SamplingResult& sampling, const SampleContext& context,
                      v1::Measurement* m) {
  for (double s : sampling.samples) m->add_samples_seconds(s);
  m->set_sample_count(static_cast<int64_t>(sampling.samples.size()));
  std::vector<double> known_clocks;
  for (size_t i = 0; i < sampling.samples.size(); ++i) {
    double clock = i < context.clocks_mhz.size() ? context.clocks_mhz[i] : 0.0;
    m->add_sample_sm_clock_mhz(clock);
    if (clock > 0) known_clocks.push_back(clock);
  }
  std::vector<double> clocks(m->sample_sm_clock_mhz().begin(), m->sample_sm_clock_mhz().end());
  std::vector<bool> throttled = MarkThrottled(clocks, context.reasons, context.setting_clock_mhz);
  int n_throttled = 0;
  for (bool t : throttled) {
    m->add_sample_throttled(t);
    n_throttled += t ? 1 : 0;
  }
  m->set_throttled_fraction(throttled.empty() ? 0.0
                                              : static_cast<double>(n_throttled) / throttled.size());
  *m->mutable_stats() = ComputeSampleStats(sampling.samples);
  m->set_median_sm_clock_mhz(Percentile(known_clocks, 50));
  m->set_bytes(context.bytes);
  m->set_flops(context.flops);
  Throughput t = ComputeThroughput(context.bytes, context.flops, m->stats().median(),
                                   context.peak_bytes_per_second);
  m->set_gbps(t.gbps);
  m->set_gflops(t.gflops);
  m->set_pct_of_peak_bandwidth(t.pct_of_peak);
  if (context.bus_bytes > 0) {
    m->set_bus_bytes(context.bus_bytes);
    const double median = m->stats().median();
    m->set_bus_gbps(median > 0 ? context.bus_bytes / median / 1e9 : 0);
  }
  m->set_stop_reason(sampling.stop_reason);
  m->set_rel_stddev(RelativeStandardDeviation(sampling.samples));
}

}  // namespace warpwatch::worker
