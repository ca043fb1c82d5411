// One timed sample of a case.
#include "worker/engine/case_sampler.h"

#include "kernels/core/cuda_check.h"

namespace warpwatch::worker {

StatusOr<std::unique_ptr<CaseSampler>> CaseSampler::Create(kernels::Case* c, cudaStream_t stream,
                                                           L2Flusher* flusher,
                                                           Telemetry* telemetry) {
  auto s = std::unique_ptr<CaseSampler>(new CaseSampler());
  s->case_ = c;
  s->stream_ = stream;
  s->flusher_ = flusher;
  s->telemetry_ = telemetry;
  CUDA_RETURN_IF_ERROR(cudaEventCreate(&s->start_));
  CUDA_RETURN_IF_ERROR(cudaEventCreate(&s->stop_));
  return s;
}

CaseSampler::~CaseSampler() {
  if (start_ != nullptr) CUDA_CHECK_NOEXCEPT(cudaEventDestroy(start_));
  if (stop_ != nullptr) CUDA_CHECK_NOEXCEPT(cudaEventDestroy(stop_));
}

StatusOr<double> CaseSampler::TakeSample() {
  // Reset first: restoring an in-place input goes through L2, so the flush must come after it.
  RETURN_IF_ERROR(case_->Reset(stream_).Annotate("Reset"));
  if (flusher_ != nullptr) RETURN_IF_ERROR(flusher_->Flush(stream_));
  CUDA_RETURN_IF_ERROR(cudaEventRecord(start_, stream_));
  RETURN_IF_ERROR(case_->Run(stream_).Annotate("Run"));
  CUDA_RETURN_IF_ERROR(cudaEventRecord(stop_, stream_));
  CUDA_RETURN_IF_ERROR(cudaEventSynchronize(stop_));
  float ms = 0;
  CUDA_RETURN_IF_ERROR(cudaEventElapsedTime(&ms, start_, stop_));
  ClockReading clock = telemetry_ != nullptr ? telemetry_->ReadClock() : ClockReading{};
  clocks_mhz_.push_back(clock.sm_clock_mhz);
  reasons_.push_back(clock.throttle_reasons);
  return static_cast<double>(ms) * 1e-3;
}

}  // namespace warpwatch::worker
