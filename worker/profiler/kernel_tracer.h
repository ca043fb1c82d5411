// Kernel start/end timestamps from CUPTI's activity API (CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL,
// which does not serialise kernels), for the engine's duration pass: the kernels' own GPU time
// next to the event time, and their real names.
#ifndef WARPWATCH_WORKER_PROFILER_KERNEL_TRACER_H_
#define WARPWATCH_WORKER_PROFILER_KERNEL_TRACER_H_

#include <memory>
#include <vector>

#include "common/status/status.h"
#include "worker/profiler/kernel_trace.h"

namespace warpwatch::worker {

// One per process (CUPTI's activity buffers are process-wide); not thread-safe.
class KernelTracer {
 public:
  // Loads CUPTI and registers the activity buffer callbacks. UNAVAILABLE "kernel durations
  // unavailable: <why>" when CUPTI cannot be loaded.
  static StatusOr<KernelTracer*> Get();

  // Starts recording every kernel the process launches.
  Status Start();
  // Stops, flushes CUPTI's buffers and returns the kernels run since Start().
  StatusOr<std::vector<KernelRecord>> Stop();

 private:
  KernelTracer() = default;
  bool recording_ = false;
};

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_PROFILER_KERNEL_TRACER_H_
