// The engine's Sampler: one timed Run() of a case between CUDA events on a non-default stream,
// with Reset() and the L2 flush before it (outside the timed region) and the SM clock read after.
#ifndef WARPWATCH_WORKER_ENGINE_CASE_SAMPLER_H_
#define WARPWATCH_WORKER_ENGINE_CASE_SAMPLER_H_

#include <cuda_runtime_api.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "kernels/core/family.h"
#include "worker/device/telemetry.h"
#include "worker/engine/l2_flusher.h"
#include "worker/stats/stopping_rule.h"

namespace warpwatch::worker {

// Borrows everything it is given; all must outlive it. `flusher` null = hot samples.
class CaseSampler : public Sampler {
 public:
  static StatusOr<std::unique_ptr<CaseSampler>> Create(kernels::Case* c, cudaStream_t stream,
                                                       L2Flusher* flusher, Telemetry* telemetry);
  ~CaseSampler() override;

  StatusOr<double> TakeSample() override;

  // One entry per successful sample.
  const std::vector<double>& clocks_mhz() const { return clocks_mhz_; }
  const std::vector<uint64_t>& throttle_reasons() const { return reasons_; }

 private:
  CaseSampler() = default;

  kernels::Case* case_ = nullptr;
  cudaStream_t stream_ = nullptr;
  L2Flusher* flusher_ = nullptr;
  Telemetry* telemetry_ = nullptr;
  cudaEvent_t start_ = nullptr;
  cudaEvent_t stop_ = nullptr;
  std::vector<double> clocks_mhz_;
  std::vector<uint64_t> reasons_;
};

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_ENGINE_CASE_SAMPLER_H_
