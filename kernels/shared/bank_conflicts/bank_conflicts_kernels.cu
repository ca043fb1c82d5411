// The shared.bank_conflicts read kernel: one kernel for every variant, the stride a run-time
// argument, so the timings differ only by the conflicts the hardware meets.
#include "kernels/core/cuda_check.h"
#include "kernels/shared/bank_conflicts/bank_conflicts_kernels.h"

namespace warpwatch::kernels {
namespace {

__global__ void BankConflictReadKernel(const float* __restrict__ table, float* __restrict__ out,
                                       int64_t threads, int stride) {
  __shared__ float s_table[kBankTableWords];
  for (int w = threadIdx.x; w < kBankTableWords; w += blockDim.x) s_table[w] = table[w];
  __syncthreads();
  const int64_t t = int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (t >= threads) return;
  const float* lane_start = s_table + (threadIdx.x % 32) * stride;
  float sum = 0.0f;
  // Not unrolled: the run-time row keeps the compiler from hoisting the reads out of the loop.
#pragma unroll 1
  for (int j = 0; j < kBankOuterSteps; ++j) {
    const float* row = lane_start + 32 * (j % kBankRowCycle);
#pragma unroll
    for (int k = 0; k < kBankInnerReads; ++k) sum += row[32 * k];
  }
  out[t] = sum;
}

}  // namespace

const void* BankConflictKernel() { return reinterpret_cast<const void*>(&BankConflictReadKernel); }

Status LaunchBankConflictReads(const float* d_table, float* d_out, int64_t threads, int stride,
                               unsigned grid, unsigned block, cudaStream_t stream) {
  BankConflictReadKernel<<<grid, block, 0, stream>>>(d_table, d_out, threads, stride);
  CUDA_RETURN_IF_LAUNCH_ERROR();
  return OkStatus();
}

}  // namespace warpwatch::kernels
