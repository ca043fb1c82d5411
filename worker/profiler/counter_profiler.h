// Hardware counters of one case (achieved occupancy and the family's metrics) per kernel, collected
// in a pass of their own after timing so profiling never perturbs the timings.
#ifndef WARPWATCH_WORKER_PROFILER_COUNTER_PROFILER_H_
#define WARPWATCH_WORKER_PROFILER_COUNTER_PROFILER_H_

#include <cuda_runtime_api.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/status/status.h"
#include "kernels/core/family.h"
#include "worker/engine/l2_flusher.h"
#include "worker/profiler/launch_counters.h"

namespace warpwatch::worker {

class CounterProfiler {
 public:
  virtual ~CounterProfiler() = default;

  // Replays Reset(), the L2 flush (`flusher`, may be null for hot cases) and Run() of `c` on
  // `stream` as many times as the metrics need, every kernel Run() launches in a range of its own
  // (CUPTI's auto range): the counters start from the same cold, clean L2 as the timed samples,
  // as Nsight Compute's --cache-control all does. Returns one entry per kernel launch, in launch
  // order, with the range's name. Metrics the device cannot collect are left out of the maps.
  // PERMISSION_DENIED when the driver forbids profiling (ERR_NVGPUCTRPERM); other errors leave the
  // case's timings valid.
  virtual StatusOr<std::vector<LaunchCounters>> Collect(kernels::Case& c, cudaStream_t stream,
                                                        const std::vector<std::string>& metrics,
                                                        L2Flusher* flusher) = 0;
};

// CUPTI's range profiler (CUDA 13 host + range profiler API) on the current device, with libcupti
// loaded at run time. UNAVAILABLE "counters unavailable: <why>" when CUPTI cannot be loaded or
// initialised; PERMISSION_DENIED when profiling is not permitted.
StatusOr<std::unique_ptr<CounterProfiler>> OpenCuptiProfiler(int device_ordinal);

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_PROFILER_COUNTER_PROFILER_H_
