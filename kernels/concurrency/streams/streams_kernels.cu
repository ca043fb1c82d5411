// concurrency.streams' element-wise kernel.
#include "kernels/concurrency/streams/streams_kernels.h"
#include "kernels/core/cuda_check.h"

namespace warpwatch::kernels {
namespace {

__global__ void StreamWork(const float* __restrict__ in, float* __restrict__ out, int64_t count,
                           int iterations) {
  const float m = StreamWorkMultiplier();
  const int64_t stride = int64_t{gridDim.x} * blockDim.x;
  for (int64_t i = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < count; i += stride) {
    const float x = in[i];
    float v = x;
    for (int k = 0; k < iterations; ++k) v = fmaf(v, m, x);
    out[i] = v;
  }
}

}  // namespace

const void* StreamWorkKernel() { return reinterpret_cast<const void*>(&StreamWork); }

Status LaunchStreamWork(const float* d_in, float* d_out, int64_t count, int iterations,
                        unsigned grid, unsigned block, cudaStream_t stream) {
  StreamWork<<<grid, block, 0, stream>>>(d_in, d_out, count, iterations);
  CUDA_RETURN_IF_LAUNCH_ERROR();
  return OkStatus();
}

}  // namespace warpwatch::kernels
