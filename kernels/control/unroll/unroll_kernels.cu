// The control.unroll kernels: one template per unroll factor of the inner loop.
#include "kernels/control/unroll/unroll_kernels.h"
#include "kernels/control/unroll/unroll_step.h"
#include "kernels/core/cuda_check.h"

namespace warpwatch::kernels {
namespace {

template <UnrollFactor kFactor>
__global__ void UnrollKernelT(const float* __restrict__ in, float* __restrict__ out, int64_t n,
                              int reps) {
  const int64_t i = int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float x = in[i];
  float y = x;
  // `reps` is a kernel argument: the outer loop stays rolled in every variant.
#pragma unroll 1
  for (int rep = 0; rep < reps; ++rep) {
    if constexpr (kFactor == UnrollFactor::kOne) {
#pragma unroll 1
      for (int k = 0; k < kUnrollInnerSteps; ++k) y = UnrollStep(y, x, k);
    } else if constexpr (kFactor == UnrollFactor::kFour) {
#pragma unroll 4
      for (int k = 0; k < kUnrollInnerSteps; ++k) y = UnrollStep(y, x, k);
    } else {
#pragma unroll
      for (int k = 0; k < kUnrollInnerSteps; ++k) y = UnrollStep(y, x, k);
    }
  }
  out[i] = y;
}

}  // namespace

const void* UnrollKernel(UnrollFactor factor) {
  switch (factor) {
    case UnrollFactor::kOne:
      return reinterpret_cast<const void*>(&UnrollKernelT<UnrollFactor::kOne>);
    case UnrollFactor::kFour:
      return reinterpret_cast<const void*>(&UnrollKernelT<UnrollFactor::kFour>);
    case UnrollFactor::kFull:
      return reinterpret_cast<const void*>(&UnrollKernelT<UnrollFactor::kFull>);
  }
  return nullptr;
}

Status LaunchUnroll(UnrollFactor factor, const float* d_in, float* d_out, int64_t n, unsigned grid,
                    unsigned block, cudaStream_t stream) {
  switch (factor) {
    case UnrollFactor::kOne:
      UnrollKernelT<UnrollFactor::kOne>
          <<<grid, block, 0, stream>>>(d_in, d_out, n, kUnrollOuterReps);
      break;
    case UnrollFactor::kFour:
      UnrollKernelT<UnrollFactor::kFour>
          <<<grid, block, 0, stream>>>(d_in, d_out, n, kUnrollOuterReps);
      break;
    case UnrollFactor::kFull:
      UnrollKernelT<UnrollFactor::kFull>
          <<<grid, block, 0, stream>>>(d_in, d_out, n, kUnrollOuterReps);
      break;
  }
  CUDA_RETURN_IF_LAUNCH_ERROR();
  return OkStatus();
}

}  // namespace warpwatch::kernels
