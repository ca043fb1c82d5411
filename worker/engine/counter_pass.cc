// Per-launch counters into a Measurement.
#include "worker/engine/counter_pass.h"

#include "worker/engine/launch_attribution.h"

namespace warpwatch::worker {

Status RunCounterPass(CounterProfiler& profiler, kernels::Case& c, cudaStream_t stream,
                      const std::vector<std::string>& metrics, L2Flusher* flusher,
                      const std::vector<std::string>& traced_launches, v1::Measurement* m) {
  ASSIGN_OR_RETURN(std::vector<LaunchCounters> launches,
                   profiler.Collect(c, stream, metrics, flusher));
  AttributeLaunchCounters(launches, traced_launches, m);
  return OkStatus();
}

}  // namespace warpwatch::worker
