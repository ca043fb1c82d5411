// What CUPTI's activity records say about the samples of one point: which kernels each Run()
// launched and how long each ran on the GPU. CUDA-free (the records are plain structs), so the CPU
// tests cover the bookkeeping.
#ifndef WARPWATCH_WORKER_PROFILER_KERNEL_TRACE_H_
#define WARPWATCH_WORKER_PROFILER_KERNEL_TRACE_H_

#include <cstdint>
#include <string>
#include <vector>

namespace warpwatch::worker {

// One kernel execution: its symbol and GPU timestamps (ns, CUPTI's clock: the one Nsight Compute's
// gpu__time_duration reads).
struct KernelRecord {
  std::string symbol;
  uint64_t start_ns = 0;
  uint64_t end_ns = 0;
};

// One kernel of the timed region, over all traced samples.
struct TracedKernel {
  std::string symbol;
  std::vector<double> seconds;  // one per sample in which it ran (summed over its launches)
  int launches_per_sample = 0;  // launches in the first sample
};

struct KernelTrace {
  std::vector<TracedKernel> kernels;  // in first-launch order
  std::vector<double> span_seconds;   // per sample: first kernel's start to last kernel's end
  std::vector<std::string> launch_symbols;  // the first sample's launches, in start order
};

// `records` in any order; the samples are the stretches between a `marker` record (the clock
// stamp before the start event) and the next one (the stamp after the stop event): every pair of
// consecutive markers, in time order, brackets one Run(). Kernels outside a pair (flush, blocker,
// Reset's kernels) are ignored. A sample with no kernel inside its markers gives no span.
KernelTrace SplitSamples(std::vector<KernelRecord> records, const std::string& marker);

// `records` without the records of `foreign` symbols: kernels of the same process that are not
// the point's (the test-only contention copy on a stream of its own), which CUPTI traces too and
// which would otherwise land between the markers.
std::vector<KernelRecord> WithoutKernels(std::vector<KernelRecord> records,
                                         const std::vector<std::string>& foreign);

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_PROFILER_KERNEL_TRACE_H_
