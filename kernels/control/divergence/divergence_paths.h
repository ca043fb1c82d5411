// control.divergence: the two paths a branch chooses between, shared by the kernels and the CPU
// reference so both compute bit-identical results. Each path is kDivergencePathOps dependent
// floating-point operations with a different instruction mix (so the compiler cannot merge the
// two sides of the branch into one loop over selected constants).
#ifndef WARPWATCH_KERNELS_CONTROL_DIVERGENCE_DIVERGENCE_PATHS_H_
#define WARPWATCH_KERNELS_CONTROL_DIVERGENCE_DIVERGENCE_PATHS_H_

#include <cmath>
#include <cstdint>

#include "kernels/core/seeded_values.h"

namespace warpwatch::kernels {

// Dependent operations per path: enough that an element costs far more arithmetic than its
// 8 bytes of DRAM traffic, so the kernels are bound by instruction issue, where divergence shows.
inline constexpr int kDivergencePathOps = 256;

// Explicit roundings on the device (no contraction of the multiply into the FMA), the same
// operations on the host.
#if defined(__CUDA_ARCH__)
#define WW_DIVERGENCE_FMA(a, b, c) __fmaf_rn(a, b, c)
#define WW_DIVERGENCE_MUL(a, b) __fmul_rn(a, b)
#define WW_DIVERGENCE_UNROLL _Pragma("unroll 16")
#else
#define WW_DIVERGENCE_FMA(a, b, c) std::fma(a, b, c)
#define WW_DIVERGENCE_MUL(a, b) ((a) * (b))
#define WW_DIVERGENCE_UNROLL
#endif

// kDivergencePathOps fused multiply-adds y <- 0.75 y + c with c = x/4 + 2^-10, from y = x:
// a contraction towards x + 2^-8, so the result depends on x.
WW_HOST_DEVICE inline float DivergencePathA(float x) {
  const float c = 0.25f * x + 0.0009765625f;
  float y = x;
  WW_DIVERGENCE_UNROLL
  for (int k = 0; k < kDivergencePathOps; ++k) y = WW_DIVERGENCE_FMA(y, 0.75f, c);
  return y;
}

// kDivergencePathOps / 2 multiply + fused multiply-add pairs y <- x - y^2/4, from y = x: a
// contraction towards 2 (sqrt(1 + x) - 1) for x in [0.5, 1.5), so the result depends on x.
WW_HOST_DEVICE inline float DivergencePathB(float x) {
  float y = x;
  WW_DIVERGENCE_UNROLL
  for (int k = 0; k < kDivergencePathOps / 2; ++k) {
    const float square = WW_DIVERGENCE_MUL(y, y);
    y = WW_DIVERGENCE_FMA(square, -0.25f, x);
  }
  return y;
}

// Floating-point operations of each path (an FMA counts 2).
inline constexpr double kDivergencePathAFlops = 2.0 * kDivergencePathOps;
inline constexpr double kDivergencePathBFlops = 3.0 * (kDivergencePathOps / 2);

#undef WW_DIVERGENCE_FMA
#undef WW_DIVERGENCE_MUL
#undef WW_DIVERGENCE_UNROLL

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_CONTROL_DIVERGENCE_DIVERGENCE_PATHS_H_
