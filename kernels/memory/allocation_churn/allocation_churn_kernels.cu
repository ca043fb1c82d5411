// The memory.allocation_churn producer and consumer kernels.
#include "kernels/core/cuda_check.h"
#include "kernels/memory/allocation_churn/allocation_churn_kernels.h"

namespace warpwatch::kernels {
namespace {

__global__ void ScratchProduceKernelImpl(const float* __restrict__ in, float* __restrict__ scratch,
                                         int64_t n) {
  const int64_t i = int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i < n) scratch[i] = 2.0f * in[i];
}

__global__ void ScratchConsumeKernel(const float* __restrict__ scratch,
                                     const float* __restrict__ in, float* __restrict__ out,
                                     int64_t n) {
  const int64_t i = int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __fadd_rn(scratch[i], in[i]);
}

}  // namespace

const void* ScratchProduceKernel() {
  return reinterpret_cast<const void*>(&ScratchProduceKernelImpl);
}

Status LaunchScratchProduceConsume(const float* d_in, float* d_scratch, float* d_out, int64_t n,
                                   unsigned grid, unsigned block, cudaStream_t stream) {
  ScratchProduceKernelImpl<<<grid, block, 0, stream>>>(d_in, d_scratch, n);
  CUDA_RETURN_IF_LAUNCH_ERROR();
  ScratchConsumeKernel<<<grid, block, 0, stream>>>(d_scratch, d_in, d_out, n);
  CUDA_RETURN_IF_LAUNCH_ERROR();
  return OkStatus();
}

}  // namespace warpwatch::kernels
