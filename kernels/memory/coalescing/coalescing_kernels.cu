// The memory.coalescing copy kernel, one instantiation per index mapping.
#include "kernels/core/cuda_check.h"
#include "kernels/memory/coalescing/coalescing_kernels.h"

namespace warpwatch::kernels {
namespace {

constexpr int kIlp = kCoalescingElementsPerThread;

template <CoalescingPattern kPattern>
__global__ void CoalescingCopyKernel(const float* __restrict__ in, float* __restrict__ out,
                                     int64_t n, int64_t stride) {
  const int64_t virtual_grid = int64_t{gridDim.x} * kIlp;
  int64_t index[kIlp];
  float value[kIlp];
#pragma unroll
  for (int k = 0; k < kIlp; ++k) {
    const int64_t virtual_block = int64_t{blockIdx.x} * kIlp + k;
    if (kPattern == CoalescingPattern::kScattered) {
      // (block, thread) -> block + thread * grid is a bijection onto [0, grid * blockDim).
      index[k] = virtual_block + int64_t{threadIdx.x} * virtual_grid;
    } else {
      index[k] = virtual_block * blockDim.x + threadIdx.x;
    }
    const int64_t src = kPattern == CoalescingPattern::kStrided ? index[k] * stride : index[k];
    if (index[k] < n) value[k] = in[src];
  }
#pragma unroll
  for (int k = 0; k < kIlp; ++k) {
    if (index[k] < n) out[index[k]] = value[k];
  }
}

}  // namespace

const void* CoalescingKernel(CoalescingPattern pattern) {
  switch (pattern) {
    case CoalescingPattern::kContiguous:
      return reinterpret_cast<const void*>(&CoalescingCopyKernel<CoalescingPattern::kContiguous>);
    case CoalescingPattern::kScattered:
      return reinterpret_cast<const void*>(&CoalescingCopyKernel<CoalescingPattern::kScattered>);
    case CoalescingPattern::kStrided:
      return reinterpret_cast<const void*>(&CoalescingCopyKernel<CoalescingPattern::kStrided>);
  }
  return nullptr;
}

Status LaunchCoalescingCopy(CoalescingPattern pattern, const float* d_in, float* d_out, int64_t n,
                            int64_t stride, unsigned grid, unsigned block, cudaStream_t stream) {
  switch (pattern) {
    case CoalescingPattern::kContiguous:
      CoalescingCopyKernel<CoalescingPattern::kContiguous>
          <<<grid, block, 0, stream>>>(d_in, d_out, n, stride);
      break;
    case CoalescingPattern::kScattered:
      CoalescingCopyKernel<CoalescingPattern::kScattered>
          <<<grid, block, 0, stream>>>(d_in, d_out, n, stride);
      break;
    case CoalescingPattern::kStrided:
      CoalescingCopyKernel<CoalescingPattern::kStrided>
          <<<grid, block, 0, stream>>>(d_in, d_out, n, stride);
      break;
  }
  CUDA_RETURN_IF_LAUNCH_ERROR();
  return OkStatus();
}

}  // namespace warpwatch::kernels
