// The memory.managed kernel: the same scale for device and managed buffers.
#include "kernels/core/cuda_check.h"
#include "kernels/memory/managed/managed_kernels.h"

namespace warpwatch::kernels {
namespace {

__global__ void ManagedScaleKernelImpl(const float* __restrict__ data, float* __restrict__ out,
                                       int64_t n) {
  const int64_t i = int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2.0f * data[i];
}

}  // namespace

const void* ManagedScaleKernel() { return reinterpret_cast<const void*>(&ManagedScaleKernelImpl); }

Status LaunchManagedScale(const float* d_data, float* d_out, int64_t n, unsigned grid,
                          unsigned block, cudaStream_t stream) {
  ManagedScaleKernelImpl<<<grid, block, 0, stream>>>(d_data, d_out, n);
  CUDA_RETURN_IF_LAUNCH_ERROR();
  return OkStatus();
}

}  // namespace warpwatch::kernels
