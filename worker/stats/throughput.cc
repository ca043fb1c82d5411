// Throughput figures.
#include "worker/stats/throughput.h"

namespace warpwatch::worker {

double TheoreticalBandwidth(double memory_clock_khz, int bus_width_bits) {
  if (memory_clock_khz <= 0 || bus_width_bits <= 0) return 0;
  return 2.0 * memory_clock_khz * 1e3 * (bus_width_bits / 8.0);
}

Throughput ComputeThroughput(double bytes, double flops, double seconds,
                             double peak_bytes_per_s) {
  Throughput t;
  if (seconds <= 0) return t;
  t.gbps = bytes / seconds / 1e9;
  t.gflops = flops / seconds / 1e9;
  if (peak_bytes_per_s > 0) t.pct_of_peak = bytes / seconds / peak_bytes_per_s;
  return t;
}

}  // namespace warpwatch::worker
