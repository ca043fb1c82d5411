// The control.divergence kernels: one template per way of choosing the path.
#include "kernels/control/divergence/divergence_kernels.h"
#include "kernels/control/divergence/divergence_paths.h"
#include "kernels/core/cuda_check.h"

namespace warpwatch::kernels {
namespace {

template <DivergenceBranch kBranch>
__global__ void DivergenceKernelT(const float* __restrict__ in, float* __restrict__ out,
                                  int64_t n) {
  const int64_t i = int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float x = in[i];
  float y;
  if constexpr (kBranch == DivergenceBranch::kPredicated) {
    // Both paths for every element; the choice is arithmetic (exact: 1*a + 0*b == a).
    const float take_a = (i % 2 == 0) ? 1.0f : 0.0f;
    const float a = DivergencePathA(x);
    const float b = DivergencePathB(x);
    y = __fmaf_rn(a, take_a, __fmul_rn(b, 1.0f - take_a));
  } else {
    if (DivergenceTakesPathA(kBranch, i)) {
      y = DivergencePathA(x);
    } else {
      y = DivergencePathB(x);
    }
  }
  out[i] = y;
}

}  // namespace

const void* DivergenceKernel(DivergenceBranch branch) {
  switch (branch) {
    case DivergenceBranch::kThread:
      return reinterpret_cast<const void*>(&DivergenceKernelT<DivergenceBranch::kThread>);
    case DivergenceBranch::kWarp:
      return reinterpret_cast<const void*>(&DivergenceKernelT<DivergenceBranch::kWarp>);
    case DivergenceBranch::kPredicated:
      return reinterpret_cast<const void*>(&DivergenceKernelT<DivergenceBranch::kPredicated>);
  }
  return nullptr;
}

Status LaunchDivergence(DivergenceBranch branch, const float* d_in, float* d_out, int64_t n,
                        unsigned grid, unsigned block, cudaStream_t stream) {
  switch (branch) {
    case DivergenceBranch::kThread:
      DivergenceKernelT<DivergenceBranch::kThread><<<grid, block, 0, stream>>>(d_in, d_out, n);
      break;
    case DivergenceBranch::kWarp:
      DivergenceKernelT<DivergenceBranch::kWarp><<<grid, block, 0, stream>>>(d_in, d_out, n);
      break;
    case DivergenceBranch::kPredicated:
      DivergenceKernelT<DivergenceBranch::kPredicated><<<grid, block, 0, stream>>>(d_in, d_out, n);
      break;
  }
  CUDA_RETURN_IF_LAUNCH_ERROR();
  return OkStatus();
}

}  // namespace warpwatch::kernels
