// One timed sample of a case.
#include "worker/engine/case_sampler.h"

#include "kernels/core/cuda_check.h"

namespace warpwatch::worker {
namespace {

Status Checked(cudaError_t err, const char* call) {
  return err == cudaSuccess ? OkStatus() : kernels::CudaError(err, call, __FILE__, __LINE__);
}

}  // namespace

StatusOr<std::unique_ptr<CaseSampler>> CaseSampler::Create(kernels::Case* c, cudaStream_t stream,
                                                           SamplerTools tools) {
  auto s = std::unique_ptr<CaseSampler>(new CaseSampler());
  s->case_ = c;
  s->stream_ = stream;
  s->tools_ = tools;
  CUDA_RETURN_IF_ERROR(cudaEventCreate(&s->start_));
  CUDA_RETURN_IF_ERROR(cudaEventCreate(&s->stop_));
  return s;
}

CaseSampler::~CaseSampler() {
  if (start_ != nullptr) CUDA_CHECK_NOEXCEPT(cudaEventDestroy(start_));
  if (stop_ != nullptr) CUDA_CHECK_NOEXCEPT(cudaEventDestroy(stop_));
}

StatusOr<double> CaseSampler::TakeSample() {
  // Reset first, before the blocker: restoring an in-place input may wait for the host, and it
  // goes through L2, so the flush must come after it.
  RETURN_IF_ERROR(case_->Reset(stream_).Annotate("Reset"));
  bool blocked = false;
  if (tools_.blocker != nullptr) {
    RETURN_IF_ERROR(tools_.blocker->Block(stream_));
    blocked = true;
  }
  // From here on the blocker must be released on every path, or the stream stays held until its
  // timeout.
  Status s = OkStatus();
  if (tools_.flusher != nullptr) s = tools_.flusher->Flush(stream_);
  if (s.ok() && tools_.stamps != nullptr) s = tools_.stamps->Begin(stream_);
  if (s.ok()) s = Checked(cudaEventRecord(start_, stream_), "cudaEventRecord(start)");
  if (s.ok()) s = case_->Run(stream_).Annotate("Run");
  if (s.ok()) s = Checked(cudaEventRecord(stop_, stream_), "cudaEventRecord(stop)");
  if (s.ok() && tools_.stamps != nullptr) s = tools_.stamps->End(stream_);
  if (blocked) tools_.blocker->Release();
  // Read while the kernels run (an idle GPU reports "idle", not what limited the kernel).
  uint64_t reasons = 0;
  if (s.ok() && tools_.telemetry != nullptr && tools_.telemetry->source() == "nvml") {
    reasons = tools_.telemetry->ReadClock().throttle_reasons;
  }
  const cudaError_t drained = cudaStreamSynchronize(stream_);
  RETURN_IF_ERROR(s);
  CUDA_RETURN_IF_ERROR(drained);
  if (blocked && tools_.blocker->TimedOut()) {
    return FailedPreconditionError(
        "the timed region waited for the host while the stream was held behind the blocking "
        "kernel: Run() must enqueue its work without synchronising (Case::host_synchronous)");
  }
  float ms = 0;
  CUDA_RETURN_IF_ERROR(cudaEventElapsedTime(&ms, start_, stop_));
  ClockInterval interval;
  if (tools_.stamps != nullptr) interval = tools_.stamps->Read();
  cycles_.push_back(interval.cycles);
  ns_.push_back(interval.ns);
  reasons_.push_back(reasons);
  return static_cast<double>(ms) * 1e-3;
}

}  // namespace warpwatch::worker
