// instr.integer_division's per-thread loop, shared by the kernels and the CPU reference. Each
// thread runs kDivisionChains chains; every step divides and takes the remainder of a new
// dividend, so no quotient can be hoisted or folded (the divisor is a run-time argument). On an
// H100 (d = 32, 2^20 threads) the division loop ran 2.5x slower than shift and mask and executed
// 3.1x the instructions: the compiler keeps the divisor's reciprocal out of the loop, so a step
// costs a multiply-high and corrections rather than the whole ~20-instruction sequence.
#ifndef WARPWATCH_KERNELS_INSTR_INTEGER_DIVISION_INTEGER_DIVISION_RECURRENCE_H_
#define WARPWATCH_KERNELS_INSTR_INTEGER_DIVISION_INTEGER_DIVISION_RECURRENCE_H_

#include <cstdint>

#include "kernels/core/seeded_values.h"

namespace warpwatch::kernels {

inline constexpr int kDivisionChains = 4;
inline constexpr int kDivisionIterations = 256;
inline constexpr uint32_t kDivisionDividendStep = 0x9e3779b9u;

// How the quotient and remainder by a power of two are taken.
struct DivisionOperands {
  uint32_t divisor = 1;  // d
  int log2_divisor = 0;  // log2(d), for the shift
  uint32_t mask = 0;     // d - 1, for the mask
};

// The loop: chain j's dividend starts at seed_bits + j * step and advances by step; the chain
// accumulates (i / d) ^ (i % d). kShift computes them as i >> log2(d) and i & (d - 1).
template <bool kShift>
WW_HOST_DEVICE inline uint32_t DivisionLoop(uint32_t seed_bits, const DivisionOperands& op,
                                            int iterations) {
  uint32_t i[kDivisionChains];
  uint32_t acc[kDivisionChains];
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
  for (int j = 0; j < kDivisionChains; ++j) {
    i[j] = seed_bits + static_cast<uint32_t>(j) * kDivisionDividendStep;
    acc[j] = 0;
  }
#if defined(__CUDA_ARCH__)
#pragma unroll 4
#endif
  for (int k = 0; k < iterations; ++k) {
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
    for (int j = 0; j < kDivisionChains; ++j) {
      if constexpr (kShift) {
        acc[j] += (i[j] >> op.log2_divisor) ^ (i[j] & op.mask);
      } else {
        acc[j] += (i[j] / op.divisor) ^ (i[j] % op.divisor);
      }
      i[j] += kDivisionDividendStep;
    }
  }
  uint32_t folded = 0;
  for (int j = 0; j < kDivisionChains; ++j) folded ^= acc[j];
  return folded;
}

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_INSTR_INTEGER_DIVISION_INTEGER_DIVISION_RECURRENCE_H_
