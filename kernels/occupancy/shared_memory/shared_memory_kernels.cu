// The occupancy.shared_memory kernel: one kernel, the dynamic shared memory size is the variant.
#include "kernels/core/cuda_check.h"
#include "kernels/occupancy/shared_memory/shared_memory_kernels.h"

namespace warpwatch::kernels {
namespace {

__global__ void SharedReverseKernelImpl(const float* __restrict__ in, float* __restrict__ out,
                                        int64_t n) {
  extern __shared__ float s_slice[];
  const int64_t start = int64_t{blockIdx.x} * blockDim.x;
  const int64_t left = n - start;
  const int m = left < blockDim.x ? static_cast<int>(left) : static_cast<int>(blockDim.x);
  const int t = static_cast<int>(threadIdx.x);
  if (t < m) s_slice[t] = in[start + t];
  __syncthreads();
  if (t < m) out[start + t] = s_slice[m - 1 - t];
}

}  // namespace

const void* SharedReverseKernel() {
  return reinterpret_cast<const void*>(&SharedReverseKernelImpl);
}

Status AllowSharedReverseBytes(size_t bytes) {
  CUDA_RETURN_IF_ERROR(cudaFuncSetAttribute(SharedReverseKernelImpl,
                                            cudaFuncAttributeMaxDynamicSharedMemorySize,
                                            static_cast<int>(bytes)));
  return OkStatus();
}

StatusOr<int> SharedReverseBlocksPerSm(unsigned block, size_t dynamic_shared_bytes) {
  int blocks = 0;
  CUDA_RETURN_IF_ERROR(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &blocks, SharedReverseKernelImpl, static_cast<int>(block), dynamic_shared_bytes));
  return blocks;
}

Status LaunchSharedReverse(const float* d_in, float* d_out, int64_t n, unsigned grid,
                           unsigned block, size_t dynamic_shared_bytes, cudaStream_t stream) {
  SharedReverseKernelImpl<<<grid, block, dynamic_shared_bytes, stream>>>(d_in, d_out, n);
  CUDA_RETURN_IF_LAUNCH_ERROR();
  return OkStatus();
}

}  // namespace warpwatch::kernels
