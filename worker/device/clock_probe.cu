// The clock64 / %globaltimer probe kernel and its launcher.
#include "worker/device/clock_probe.h"

#include "kernels/core/cuda_check.h"

namespace warpwatch::worker {
namespace {

__device__ __forceinline__ unsigned long long GlobalTimerNs() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void ClockProbeKernel(unsigned long long spin_ns, unsigned long long* out) {
  const unsigned long long t0 = GlobalTimerNs();
  const long long c0 = clock64();
  unsigned long long t1;
  do {
    t1 = GlobalTimerNs();
  } while (t1 - t0 < spin_ns);
  const long long c1 = clock64();
  out[0] = static_cast<unsigned long long>(c1 - c0);
  out[1] = t1 - t0;
}

}  // namespace

StatusOr<double> ProbeSmClockMhz(cudaStream_t stream, uint64_t spin_ns,
                                 unsigned long long* d_scratch) {
  ClockProbeKernel<<<1, 1, 0, stream>>>(spin_ns, d_scratch);
  CUDA_RETURN_IF_LAUNCH_ERROR();
  unsigned long long h_out[2] = {0, 0};
  CUDA_RETURN_IF_ERROR(
      cudaMemcpyAsync(h_out, d_scratch, sizeof h_out, cudaMemcpyDeviceToHost, stream));
  CUDA_RETURN_IF_ERROR(cudaStreamSynchronize(stream));
  if (h_out[1] == 0) return InternalError("clock probe: %globaltimer did not advance");
  return static_cast<double>(h_out[0]) / static_cast<double>(h_out[1]) * 1e3;
}

}  // namespace warpwatch::worker
