// Throughput figures derived from a median time and a case's useful work. CUDA-free.
#ifndef WARPWATCH_WORKER_STATS_THROUGHPUT_H_
#define WARPWATCH_WORKER_STATS_THROUGHPUT_H_

namespace warpwatch::worker {

// Theoretical DRAM bandwidth in bytes/s: 2 (double data rate) * memory clock * bus width / 8.
// 0 when either input is unknown (0).
double TheoreticalBandwidth(double memory_clock_khz, int bus_width_bits);

struct Throughput {
  double gbps = 0;              // bytes / seconds / 1e9
  double gflops = 0;            // flops / seconds / 1e9
  double pct_of_peak = 0;       // bytes/s over the theoretical bandwidth, as a ratio (1.0 = 100 %)
};

// All zeros when seconds <= 0; pct_of_peak is 0 when the peak is unknown.
Throughput ComputeThroughput(double bytes, double flops, double seconds, double peak_bytes_per_s);

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_STATS_THROUGHPUT_H_
