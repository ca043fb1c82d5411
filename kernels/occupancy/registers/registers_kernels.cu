// The occupancy.registers kernels: one body, four register budgets.
#include "kernels/core/cuda_check.h"
#include "kernels/occupancy/registers/registers_kernels.h"
#include "kernels/occupancy/registers/registers_recurrence.h"

namespace warpwatch::kernels {
namespace {

// Explicit __fmaf_rn everywhere (no contraction choices left to the compiler), so the CPU
// reference's std::fma sequence is bitwise the same.
__device__ __forceinline__ void RecurrenceBody(const uint8_t* __restrict__ in,
                                               float* __restrict__ out, int64_t n) {
  const int64_t stride = int64_t{gridDim.x} * blockDim.x;
  for (int64_t i = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += stride) {
    const float x = RecurrenceInput(in[i]);
    float s[kStateWords];  // live across the whole rounds loop: the register demand
#pragma unroll
    for (int k = 0; k < kStateWords; ++k) s[k] = __fmaf_rn(x, InitScale(k), InitOffset(k));
    float p = x;
#pragma unroll 1
    for (int r = 0; r < kRounds; ++r) {
#pragma unroll
      for (int k = 0; k < kStateWords; ++k) {
        p = __fmaf_rn(FlipCarry(k) ? -p : p, s[k], FlipInput(k) ? -x : x);
        s[k] = p;
      }
    }
    out[i] = p;
  }
}

#define WW_RECURRENCE_PARAMS const uint8_t *__restrict__ in, float *__restrict__ out, int64_t n

__global__ void RecurrenceUnbounded(WW_RECURRENCE_PARAMS) { RecurrenceBody(in, out, n); }
__global__ void __launch_bounds__(512, 1) RecurrenceBounds512x1(WW_RECURRENCE_PARAMS) {
  RecurrenceBody(in, out, n);
}
__global__ void __launch_bounds__(512, 2) RecurrenceBounds512x2(WW_RECURRENCE_PARAMS) {
  RecurrenceBody(in, out, n);
}
// Two resident 1024-thread blocks need 2048 threads per SM: 7.5 has 1024 and 8.6, 8.9 and 12.x
// have 1536, where ptxas rejects the bound (an error under --Werror). Code for those asks for one
// block; the family skips launch_bounds_1024_2 on such GPUs (its lesson needs the 2-block cap).
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ != 800 && __CUDA_ARCH__ != 900 && \
    __CUDA_ARCH__ != 1000 && __CUDA_ARCH__ != 1030
#define WW_MIN_BLOCKS_1024 1
#else
#define WW_MIN_BLOCKS_1024 2
#endif
__global__ void __launch_bounds__(1024, WW_MIN_BLOCKS_1024)
    RecurrenceBounds1024x2(WW_RECURRENCE_PARAMS) {
  RecurrenceBody(in, out, n);
}

#undef WW_MIN_BLOCKS_1024
#undef WW_RECURRENCE_PARAMS

using RecurrenceFn = void (*)(const uint8_t*, float*, int64_t);

RecurrenceFn KernelFor(RegisterBound bound) {
  switch (bound) {
    case RegisterBound::kUnbounded:
      return &RecurrenceUnbounded;
    case RegisterBound::kBounds512x1:
      return &RecurrenceBounds512x1;
    case RegisterBound::kBounds512x2:
      return &RecurrenceBounds512x2;
    case RegisterBound::kBounds1024x2:
      return &RecurrenceBounds1024x2;
  }
  return nullptr;
}

}  // namespace

int RegisterBoundMaxThreads(RegisterBound bound) {
  switch (bound) {
    case RegisterBound::kUnbounded:
      return 0;
    case RegisterBound::kBounds512x1:
    case RegisterBound::kBounds512x2:
      return 512;
    case RegisterBound::kBounds1024x2:
      return 1024;
  }
  return 0;
}

const void* RecurrenceKernel(RegisterBound bound) {
  return reinterpret_cast<const void*>(KernelFor(bound));
}

StatusOr<cudaFuncAttributes> RecurrenceAttributes(RegisterBound bound) {
  cudaFuncAttributes attr{};
  CUDA_RETURN_IF_ERROR(cudaFuncGetAttributes(&attr, KernelFor(bound)));
  return attr;
}

StatusOr<int> RecurrenceBlocksPerSm(RegisterBound bound, unsigned block) {
  int blocks = 0;
  CUDA_RETURN_IF_ERROR(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, KernelFor(bound), block, 0));
  return blocks;
}

Status LaunchRecurrence(RegisterBound bound, const uint8_t* d_in, float* d_out, int64_t n,
                        unsigned grid, unsigned block, cudaStream_t stream) {
  KernelFor(bound)<<<grid, block, 0, stream>>>(d_in, d_out, n);
  CUDA_RETURN_IF_LAUNCH_ERROR();
  return OkStatus();
}

}  // namespace warpwatch::kernels
