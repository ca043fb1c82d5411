// Per-kernel counters into a Measurement.
#include "worker/engine/counter_pass.h"

#include "common/catalog/catalog.h"

namespace warpwatch::worker {

Status RunCounterPass(CounterProfiler& profiler, kernels::Case& c, cudaStream_t stream,
                      const std::vector<std::string>& metrics, L2Flusher* flusher,
                      v1::Measurement* m) {
  ASSIGN_OR_RETURN(std::vector<KernelCounters> per_kernel,
                   profiler.Collect(c, stream, metrics, flusher));
  for (size_t i = 0; i < per_kernel.size(); ++i) {
    while (m->kernels_size() <= static_cast<int>(i)) m->add_kernels();
    auto* counters = m->mutable_kernels(static_cast<int>(i))->mutable_counters();
    for (const auto& [name, value] : per_kernel[i]) (*counters)[name] = value;
  }
  if (per_kernel.empty()) return OkStatus();
  for (const auto& [name, value] : per_kernel[0]) (*m->mutable_counters())[name] = value;
  auto it = per_kernel[0].find(catalog::kAchievedOccupancyCounter);
  if (it != per_kernel[0].end() && m->has_occupancy()) {
    m->mutable_occupancy()->set_achieved(it->second / 100.0);
  }
  return OkStatus();
}

}  // namespace warpwatch::worker
