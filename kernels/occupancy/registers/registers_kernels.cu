// The occupancy.registers kernels: one body, four register budgets.
#include "kernels/core/cuda_check.h"
#include "kernels/occupancy/registers/registers_kernels.h"

namespace warpwatch::kernels {
namespace {

__device__ __forceinline__ void PolynomialBody(const float* __restrict__ x,
                                               const float* __restrict__ coef,
                                               float* __restrict__ out, int64_t n) {
  float c[kPolyTerms];  // live across the whole loop: the register demand
#pragma unroll
  for (int j = 0; j < kPolyTerms; ++j) c[j] = coef[j];
  const int64_t stride = int64_t{gridDim.x} * blockDim.x;
  for (int64_t i = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += stride) {
    const float t = x[i];
    float acc = c[kPolyTerms - 1];
#pragma unroll
    for (int j = kPolyTerms - 2; j >= 0; --j) acc = __fmaf_rn(acc, t, c[j]);
    out[i] = acc;
  }
}

#define WW_POLY_PARAMS                                                                  \
  const float *__restrict__ x, const float *__restrict__ coef, float *__restrict__ out, \
      int64_t n

__global__ void PolyUnbounded(WW_POLY_PARAMS) { PolynomialBody(x, coef, out, n); }
__global__ void __launch_bounds__(512, 1) PolyBounds512x1(WW_POLY_PARAMS) {
  PolynomialBody(x, coef, out, n);
}
__global__ void __launch_bounds__(512, 2) PolyBounds512x2(WW_POLY_PARAMS) {
  PolynomialBody(x, coef, out, n);
}
__global__ void __launch_bounds__(1024, 2) PolyBounds1024x2(WW_POLY_PARAMS) {
  PolynomialBody(x, coef, out, n);
}

#undef WW_POLY_PARAMS

using PolyFn = void (*)(const float*, const float*, float*, int64_t);

PolyFn KernelFor(RegisterBound bound) {
  switch (bound) {
    case RegisterBound::kUnbounded:
      return &PolyUnbounded;
    case RegisterBound::kBounds512x1:
      return &PolyBounds512x1;
    case RegisterBound::kBounds512x2:
      return &PolyBounds512x2;
    case RegisterBound::kBounds1024x2:
      return &PolyBounds1024x2;
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

const void* PolynomialKernel(RegisterBound bound) {
  return reinterpret_cast<const void*>(KernelFor(bound));
}

StatusOr<cudaFuncAttributes> PolynomialAttributes(RegisterBound bound) {
  cudaFuncAttributes attr{};
  CUDA_RETURN_IF_ERROR(cudaFuncGetAttributes(&attr, KernelFor(bound)));
  return attr;
}

StatusOr<int> PolynomialBlocksPerSm(RegisterBound bound, unsigned block) {
  int blocks = 0;
  CUDA_RETURN_IF_ERROR(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, KernelFor(bound), block, 0));
  return blocks;
}

Status LaunchPolynomial(RegisterBound bound, const float* d_x, const float* d_coef, float* d_out,
                        int64_t n, unsigned grid, unsigned block, cudaStream_t stream) {
  KernelFor(bound)<<<grid, block, 0, stream>>>(d_x, d_coef, d_out, n);
  CUDA_RETURN_IF_LAUNCH_ERROR();
  return OkStatus();
}

}  // namespace warpwatch::kernels
