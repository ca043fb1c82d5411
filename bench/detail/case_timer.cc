// Median-of-runs timing of a Case with CUDA events.
#include "bench/detail/case_timer.h"

#include <algorithm>
#include <memory>
#include <vector>

#include "kernels/core/cuda_check.h"
#include "kernels/core/family.h"
#include "worker/engine/kernel_symbols.h"

namespace warpwatch::bench {

namespace {

// Destroys the events on every path.
struct EventPair {
  cudaEvent_t start = nullptr;
  cudaEvent_t stop = nullptr;
  ~EventPair() {
    if (start != nullptr) CUDA_CHECK_NOEXCEPT(cudaEventDestroy(start));
    if (stop != nullptr) CUDA_CHECK_NOEXCEPT(cudaEventDestroy(stop));
  }
};

}  // namespace

StatusOr<CaseTiming> TimeCase(const catalog::Point& point, const cudaDeviceProp& prop, int runs,
                              cudaStream_t stream, worker::L2Flusher* flusher) {
  CaseTiming timing;
  timing.key = point.Canonical();
  const kernels::Family* family = kernels::FindImplementation(point.family);
  if (family == nullptr) return NotFoundError(timing.key + ": family not implemented");
  StatusOr<std::unique_ptr<kernels::Case>> made = family->MakeCase(point, prop);
  if (!made.ok()) return made.status().Annotate(timing.key);
  kernels::Case& c = **made;
  RETURN_IF_ERROR(c.Setup(stream).Annotate(timing.key + ": Setup"));
  if (const void* f = c.Shape().function; f != nullptr) {
    ASSIGN_OR_RETURN(worker::KernelName name, worker::NameOfKernel(f));
    timing.kernel_name = name.name;
  }
  timing.bytes = c.work().bytes;

  RETURN_IF_ERROR(c.Reset(stream));
  RETURN_IF_ERROR(c.Run(stream).Annotate(timing.key + ": Run"));
  CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(stream));
  const kernels::VerifyResult verify = c.Verify(stream);
  RETURN_IF_ERROR(verify.status.Annotate("verification failed"));

  for (int i = 0; i < 3; ++i) {
    RETURN_IF_ERROR(c.Reset(stream));
    RETURN_IF_ERROR(c.Run(stream));
  }
  EventPair events;
  CUDA_RETURN_IF_ERROR(cudaEventCreate(&events.start));
  CUDA_RETURN_IF_ERROR(cudaEventCreate(&events.stop));
  std::vector<double> samples;
  for (int i = 0; i < runs; ++i) {
    RETURN_IF_ERROR(c.Reset(stream));
    if (flusher != nullptr) RETURN_IF_ERROR(flusher->Flush(stream));
    CUDA_RETURN_IF_ERROR(cudaEventRecord(events.start, stream));
    RETURN_IF_ERROR(c.Run(stream));
    CUDA_RETURN_IF_ERROR(cudaEventRecord(events.stop, stream));
    CUDA_RETURN_IF_ERROR(cudaEventSynchronize(events.stop));
    float ms = 0;
    CUDA_RETURN_IF_ERROR(cudaEventElapsedTime(&ms, events.start, events.stop));
    samples.push_back(ms * 1e-3);
  }
  std::sort(samples.begin(), samples.end());
  timing.runs = runs;
  const size_t mid = samples.size() / 2;
  timing.median_seconds =
      samples.size() % 2 == 1 ? samples[mid] : 0.5 * (samples[mid - 1] + samples[mid]);
  return timing;
}

}  // namespace warpwatch::bench
