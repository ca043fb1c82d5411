// The memory.alignment copy kernel: the aligned and misaligned variants run the same code, only
// the offset argument differs.
#include "kernels/core/cuda_check.h"
#include "kernels/memory/alignment/alignment_kernels.h"

namespace warpwatch::kernels {
namespace {

constexpr int kIlp = kAlignmentElementsPerThread;

__global__ void AlignmentCopyKernel(const float* __restrict__ in, float* __restrict__ out,
                                    int64_t n, int64_t offset) {
  int64_t index[kIlp];
  float value[kIlp];
#pragma unroll
  for (int k = 0; k < kIlp; ++k) {
    index[k] = (int64_t{blockIdx.x} * kIlp + k) * blockDim.x + threadIdx.x;
    if (index[k] < n) value[k] = in[index[k] + offset];
  }
#pragma unroll
  for (int k = 0; k < kIlp; ++k) {
    if (index[k] < n) out[index[k]] = value[k];
  }
}

}  // namespace

const void* AlignmentKernel() { return reinterpret_cast<const void*>(&AlignmentCopyKernel); }

Status LaunchAlignmentCopy(const float* d_in, float* d_out, int64_t n, int64_t offset,
                           unsigned grid, unsigned block, cudaStream_t stream) {
  AlignmentCopyKernel<<<grid, block, 0, stream>>>(d_in, d_out, n, offset);
  CUDA_RETURN_IF_LAUNCH_ERROR();
  return OkStatus();
}

}  // namespace warpwatch::kernels
