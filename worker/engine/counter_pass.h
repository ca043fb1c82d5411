// The counter pass of a point: CUPTI range-profiler counters for each kernel Run() launches, on a
// cold, clean L2 like the timed samples.
#ifndef WARPWATCH_WORKER_ENGINE_COUNTER_PASS_H_
#define WARPWATCH_WORKER_ENGINE_COUNTER_PASS_H_

#include <cuda_runtime_api.h>

#include <string>
#include <vector>

#include "common/status/status.h"
#include "kernels/core/family.h"
#include "warpwatch/v1/measurement.pb.h"
#include "worker/engine/l2_flusher.h"
#include "worker/profiler/counter_profiler.h"

namespace warpwatch::worker {

// Collects `metrics` with `profiler` and stores them: each kernel's in m->kernels(i).counters
// (KernelInfo entries are added when the duration pass named fewer kernels), the first kernel's
// also in m->counters and, when the point reports occupancy, its achieved occupancy. Returns the
// profiler's error unchanged.
Status RunCounterPass(CounterProfiler& profiler, kernels::Case& c, cudaStream_t stream,
                      const std::vector<std::string>& metrics, L2Flusher* flusher,
                      v1::Measurement* m);

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_ENGINE_COUNTER_PASS_H_
