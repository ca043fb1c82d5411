// The occupancy.block_size SAXPY kernel.
#include "kernels/core/cuda_check.h"
#include "kernels/occupancy/block_size/block_size_kernels.h"

namespace warpwatch::kernels {
namespace {

__global__ void SaxpyOneKernel(float a, const float* __restrict__ x, const float* __restrict__ y,
                               float* __restrict__ out, int64_t n) {
  const int64_t i = int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __fmaf_rn(a, x[i], y[i]);
}

}  // namespace

const void* SaxpyKernel() { return reinterpret_cast<const void*>(&SaxpyOneKernel); }

StatusOr<int> SaxpyPotentialBlockSize() {
  int min_grid = 0;
  int block = 0;
  CUDA_RETURN_IF_ERROR(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, SaxpyOneKernel, 0, 0));
  return block;
}

Status LaunchSaxpy(float a, const float* d_x, const float* d_y, float* d_out, int64_t n,
                   unsigned grid, unsigned block, cudaStream_t stream) {
  SaxpyOneKernel<<<grid, block, 0, stream>>>(a, d_x, d_y, d_out, n);
  CUDA_RETURN_IF_LAUNCH_ERROR();
  return OkStatus();
}

}  // namespace warpwatch::kernels
