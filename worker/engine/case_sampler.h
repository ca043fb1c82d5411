// The engine's Sampler: one timed Run() of a case between CUDA events on a non-default stream.
// Per sample, in stream order: Reset() (outside everything), the blocking kernel, the L2 flush,
// the opening clock stamp, the start event, Run(), the stop event, the closing clock stamp; then
// the host releases the blocker, reads the driver's throttle reasons while the GPU works, and
// waits. The timed region so holds GPU work only (no host launch time, no flush write-back), and
// the SM clock of each sample is the one its kernels ran at.
#ifndef WARPWATCH_WORKER_ENGINE_CASE_SAMPLER_H_
#define WARPWATCH_WORKER_ENGINE_CASE_SAMPLER_H_

#include <cuda_runtime_api.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "kernels/core/family.h"
#include "worker/device/telemetry.h"
#include "worker/engine/clock_stamps.h"
#include "worker/engine/l2_flusher.h"
#include "worker/engine/launch_blocker.h"
#include "worker/stats/stopping_rule.h"

namespace warpwatch::worker {

// What the sampler needs besides the case; borrowed, all must outlive the sampler.
struct SamplerTools {
  L2Flusher* flusher = nullptr;      // null = hot samples
  LaunchBlocker* blocker = nullptr;  // null = the case's Run() waits for the host
  ClockStamps* stamps = nullptr;     // null = no clock per sample
  Telemetry* telemetry = nullptr;    // throttle reasons when it is NVML; may be null
};

class CaseSampler : public Sampler {
 public:
  static StatusOr<std::unique_ptr<CaseSampler>> Create(kernels::Case* c, cudaStream_t stream,
                                                       SamplerTools tools);
  ~CaseSampler() override;

  // FAILED_PRECONDITION when the blocker timed out: Run() waited for the host while the stream
  // was held, so the sample would have timed the host.
  StatusOr<double> TakeSample() override;
  // Switches to another case (a fresh allocation group); the next sample uses it.
  void SetCase(kernels::Case* c) { case_ = c; }

  // One entry per successful sample (0 where unknown).
  const std::vector<double>& stamp_cycles() const { return cycles_; }
  const std::vector<double>& stamp_ns() const { return ns_; }
  const std::vector<uint64_t>& throttle_reasons() const { return reasons_; }

 private:
  CaseSampler() = default;

  kernels::Case* case_ = nullptr;
  cudaStream_t stream_ = nullptr;
  SamplerTools tools_;
  cudaEvent_t start_ = nullptr;
  cudaEvent_t stop_ = nullptr;
  std::vector<double> cycles_;
  std::vector<double> ns_;
  std::vector<uint64_t> reasons_;
};

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_ENGINE_CASE_SAMPLER_H_
