// The counter pass of a point: CUPTI range-profiler counters for each kernel launch of Run(), on a
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

// Collects `metrics` with `profiler` and files every launch's counters under the kernel it ran
// (AttributeLaunchCounters: m->launches, each kernel's counters, m->counters, achieved occupancy).
// `traced_launches`: the duration pass's symbols of one Run()'s launches, in launch order (may be
// empty). Returns the profiler's error unchanged.
Status RunCounterPass(CounterProfiler& profiler, kernels::Case& c, cudaStream_t stream,
                      const std::vector<std::string>& metrics, L2Flusher* flusher,
                      const std::vector<std::string>& traced_launches, v1::Measurement* m);

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_ENGINE_COUNTER_PASS_H_
