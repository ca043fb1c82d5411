// occupancy.registers kernels behind host launchers: one register-hungry kernel (a degree-51
// polynomial whose 52 coefficients stay in registers across a grid-stride loop) compiled under
// different __launch_bounds__, so only the register budget differs between variants.
#ifndef WARPWATCH_KERNELS_OCCUPANCY_REGISTERS_REGISTERS_KERNELS_H_
#define WARPWATCH_KERNELS_OCCUPANCY_REGISTERS_REGISTERS_KERNELS_H_

#include <cuda_runtime_api.h>

#include <cstdint>

#include "common/status/status.h"

namespace warpwatch::kernels {

// Coefficients of the polynomial (degree kPolyTerms - 1). Chosen so that with CUDA 13's ptxas for
// sm_90 the unbounded kernel wants 65-72 registers (one 512-thread block per SM), the (512, 2)
// bound fits 64 without spilling (two blocks), and the (1024, 2) bound's 32 spills.
inline constexpr int kPolyTerms = 52;

enum class RegisterBound {
  kUnbounded,       // no __launch_bounds__
  kBounds512x1,     // __launch_bounds__(512, 1): up to 128 registers
  kBounds512x2,     // __launch_bounds__(512, 2): up to 64 registers
  kBounds1024x2,    // __launch_bounds__(1024, 2): up to 32 registers
};

// Largest block the variant's launch bounds allow (0: none declared).
int RegisterBoundMaxThreads(RegisterBound bound);

// out[i] = p(x[i]) for i in [0, n), p(t) = sum_j coef[j] t^j evaluated by Horner with fmaf from
// coef[kPolyTerms - 1] down; a grid-stride loop, so any grid >= 1 works.
Status LaunchPolynomial(RegisterBound bound, const float* d_x, const float* d_coef, float* d_out,
                        int64_t n, unsigned grid, unsigned block, cudaStream_t stream);

const void* PolynomialKernel(RegisterBound bound);

// cudaFuncGetAttributes of the variant's kernel (registers, local memory, max threads).
StatusOr<cudaFuncAttributes> PolynomialAttributes(RegisterBound bound);

// Resident blocks per SM of the variant's kernel at `block` threads (occupancy API).
StatusOr<int> PolynomialBlocksPerSm(RegisterBound bound, unsigned block);

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_OCCUPANCY_REGISTERS_REGISTERS_KERNELS_H_
