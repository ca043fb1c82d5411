// control.unroll: one step of the loop every variant runs, shared by the kernels and the CPU
// reference so both compute bit-identical results.
#ifndef WARPWATCH_KERNELS_CONTROL_UNROLL_UNROLL_STEP_H_
#define WARPWATCH_KERNELS_CONTROL_UNROLL_UNROLL_STEP_H_

#include <cmath>

#include "kernels/core/seeded_values.h"

namespace warpwatch::kernels {

// Steps of the inner loop (the one the variants unroll differently) and repetitions of it per
// element (an outer loop every variant keeps rolled, so only the inner loop's overhead differs).
inline constexpr int kUnrollInnerSteps = 16;
inline constexpr int kUnrollOuterReps = 4;

// Step k: y <- 0.75 y + (x + k/16), each operation rounded once. When the loop is unrolled, k/16
// is a constant folded into the instruction; rolled, it is computed from the loop counter.
WW_HOST_DEVICE inline float UnrollStep(float y, float x, int k) {
  const float kf = static_cast<float>(k) * 0.0625f;
#if defined(__CUDA_ARCH__)
  return __fmaf_rn(y, 0.75f, __fadd_rn(x, kf));
#else
  return std::fma(y, 0.75f, x + kf);
#endif
}

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_CONTROL_UNROLL_UNROLL_STEP_H_
