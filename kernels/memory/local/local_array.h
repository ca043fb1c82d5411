// memory.local: the per-thread array computation, shared by the kernels and the CPU reference so
// both produce bit-identical results. Each thread fills a private float[size] from its input and
// folds kLocalRounds passes over it, reading element (j + round + shift) % size at step j.
#ifndef WARPWATCH_KERNELS_MEMORY_LOCAL_LOCAL_ARRAY_H_
#define WARPWATCH_KERNELS_MEMORY_LOCAL_LOCAL_ARRAY_H_

#include <cmath>

#include "kernels/core/seeded_values.h"

namespace warpwatch::kernels {

inline constexpr int kLocalRounds = 8;
// The rotation: a kernel argument in the dynamic-index variant (so the compiler cannot resolve
// the indices and places the array in local memory), this compile-time constant in the
// registers variant. The family passes this value to both, so they compute the same thing.
inline constexpr int kLocalShift = 3;

// Element k of a thread's array before the passes: x * (1 + k/64) + k (exact constants).
WW_HOST_DEVICE inline float LocalArrayElement(float x, int k) {
#if defined(__CUDA_ARCH__)
  return __fmaf_rn(x, 1.0f + 0.015625f * static_cast<float>(k), static_cast<float>(k));
#else
  return std::fma(x, 1.0f + 0.015625f * static_cast<float>(k), static_cast<float>(k));
#endif
}

// One step of the fold: acc <- acc / 2 + v, rounded once.
WW_HOST_DEVICE inline float LocalFoldStep(float acc, float v) {
#if defined(__CUDA_ARCH__)
  return __fmaf_rn(acc, 0.5f, v);
#else
  return std::fma(acc, 0.5f, v);
#endif
}

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_MEMORY_LOCAL_LOCAL_ARRAY_H_
