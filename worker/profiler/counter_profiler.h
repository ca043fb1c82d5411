// Hardware counters of one case (achieved occupancy and the family's metrics), collected in a pass
// of their own after timing so profiling never perturbs the timings.
#ifndef WARPWATCH_WORKER_PROFILER_COUNTER_PROFILER_H_
#define WARPWATCH_WORKER_PROFILER_COUNTER_PROFILER_H_

#include <cuda_runtime_api.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/status/status.h"
#include "kernels/core/family.h"

namespace warpwatch::worker {

class CounterProfiler {
 public:
  virtual ~CounterProfiler() = default;

  // Replays Reset() + Run() of `c` on `stream` as many times as the metrics need (one range per
  // replay pass) and returns metric name -> value (as ncu reports it: a pct metric in percent).
  // Metrics the device cannot collect are left out of the map. PERMISSION_DENIED when the driver
  // forbids profiling (ERR_NVGPUCTRPERM); other errors leave the case's timings valid.
  virtual StatusOr<std::map<std::string, double>> Collect(kernels::Case& c, cudaStream_t stream,
                                                          const std::vector<std::string>& metrics) = 0;
};

// CUPTI's range profiler (CUDA 13 host + range profiler API) on the current device, with libcupti
// loaded at run time. UNAVAILABLE "counters unavailable: <why>" when CUPTI cannot be loaded or
// initialised; PERMISSION_DENIED when profiling is not permitted.
StatusOr<std::unique_ptr<CounterProfiler>> OpenCuptiProfiler(int device_ordinal);

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_PROFILER_COUNTER_PROFILER_H_
