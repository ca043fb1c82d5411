// instr.arithmetic's per-thread recurrences, shared by the kernels and the CPU reference so both
// compute exactly the same thing. Each thread runs kArithmeticChains independent chains (enough
// instruction-level parallelism that throughput, not latency, limits the loop); every step of
// every chain is one operation of the type under test and depends on the step before, so the
// compiler can neither fold the loop nor drop it (the result is stored).
#ifndef WARPWATCH_KERNELS_INSTR_ARITHMETIC_ARITHMETIC_RECURRENCE_H_
#define WARPWATCH_KERNELS_INSTR_ARITHMETIC_ARITHMETIC_RECURRENCE_H_

#include <cstdint>
#include <cstring>

#include "kernels/core/seeded_values.h"

namespace warpwatch::kernels {

// Operations per thread per loop iteration, for every variant (8 FMAs, 4 half2 FMAs of two lanes,
// 4 pairs of dependent integer operations).
inline constexpr int kArithmeticChains = 8;

// Loop iterations per thread (a multiple of the kernels' unroll factor, 16).
inline constexpr int kArithmeticIterations = 256;

// Multiplier of floating-point chain j: 1 - (1 + j % 4) / 256, exact in half and bfloat16 too,
// so the chain acc = acc * m + c moves toward c / (1 - m) without converging within the loop.
WW_HOST_DEVICE inline float ArithmeticMultiplier(int j) {
  return 1.0f - static_cast<float>(1 + j % 4) * (1.0f / 256.0f);
}

// Starting value of floating-point chain j from the thread's input x.
WW_HOST_DEVICE inline float ArithmeticStart(float x, int j) { return x + static_cast<float>(j); }

// The thread's input's bits, the seed of the integer chains.
WW_HOST_DEVICE inline uint32_t ArithmeticBits(float x) {
#if defined(__CUDA_ARCH__)
  return __float_as_uint(x);
#else
  uint32_t u = 0;
  std::memcpy(&u, &x, sizeof(u));
  return u;
#endif
}

// Integer pair p's starting values (a, b); odd so that products never collapse to zero.
WW_HOST_DEVICE inline uint32_t ArithmeticIntA(float x, int p) {
  return (ArithmeticBits(x) + static_cast<uint32_t>(p) * 0x9e3779b9u) | 1u;
}
WW_HOST_DEVICE inline uint32_t ArithmeticIntB(float x, int p) {
  return (ArithmeticIntA(x, p) ^ 0x5bd1e995u) | 1u;
}

// Shift of int32_shift's funnel shifts (the kernel receives it as a run-time argument).
inline constexpr int kArithmeticShift = 7;

// __funnelshift_l(lo, hi, s) on the host: the high word of (hi:lo) << (s & 31).
inline uint32_t HostFunnelShiftLeft(uint32_t lo, uint32_t hi, int s) {
  const int k = s & 31;
  if (k == 0) return hi;
  return (hi << k) | (lo >> (32 - k));
}

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_INSTR_ARITHMETIC_ARITHMETIC_RECURRENCE_H_
