// instr.type_conversion's per-thread loops, shared by the kernels and the CPU reference.
// Floating point: v = v * 0.5 + c, written with a double constant (v is promoted to double and the
// result converted back every step) or with 0.5f. Both give bit-identical floats: v * 0.5 is exact
// and v * 0.5 + c is exact in double, so the one rounding to float is the FFMA's rounding.
// Integer: v = (v >> 1) * a + b on char, short or int variables (a, b run-time values).
// On an H100: the double constant made the loop 14.6x slower (two F2F conversions per step on a
// slow pipe; 2.8x the instructions), char 3.2x and short 2.9x slower than int (sign extensions:
// 2.2x the instructions).
#ifndef WARPWATCH_KERNELS_INSTR_TYPE_CONVERSION_TYPE_CONVERSION_RECURRENCE_H_
#define WARPWATCH_KERNELS_INSTR_TYPE_CONVERSION_TYPE_CONVERSION_RECURRENCE_H_

#include <cstdint>
#include <cstring>

#include "kernels/core/seeded_values.h"

namespace warpwatch::kernels {

inline constexpr int kConversionChains = 8;
inline constexpr int kConversionIterations = 256;

// Chain j's starting value and addend from the thread's input x.
WW_HOST_DEVICE inline float ConversionStart(float x, int j) { return x + static_cast<float>(j); }

// The integer chains' operands: a odd in [3, 17], b from the input's bits.
WW_HOST_DEVICE inline int ConversionMultiplier(int j) { return 3 + 2 * j; }
WW_HOST_DEVICE inline int ConversionAddend(uint32_t bits, int j) {
  return static_cast<int>((bits >> (j * 3)) & 0x7fff);
}

// One integer step on type T. The multiply-add runs in unsigned (wrapping, defined for every T);
// the conversion back to T keeps the low bits (two's complement, as nvcc and GCC define it).
template <typename T>
WW_HOST_DEVICE inline T ConversionIntStep(T v, int a, int b) {
  const int shifted = static_cast<int>(v) >> 1;
  return static_cast<T>(static_cast<uint32_t>(shifted) * static_cast<uint32_t>(a) +
                        static_cast<uint32_t>(b));
}

template <typename T>
WW_HOST_DEVICE inline uint32_t ConversionIntLoop(uint32_t bits, int iterations) {
  T v[kConversionChains];
  int a[kConversionChains];
  int b[kConversionChains];
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
  for (int j = 0; j < kConversionChains; ++j) {
    v[j] = static_cast<T>(bits >> j);
    a[j] = ConversionMultiplier(j);
    b[j] = ConversionAddend(bits, j);
  }
#if defined(__CUDA_ARCH__)
#pragma unroll 8
#endif
  for (int i = 0; i < iterations; ++i) {
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
    for (int j = 0; j < kConversionChains; ++j) v[j] = ConversionIntStep<T>(v[j], a[j], b[j]);
  }
  uint32_t folded = 0;
  for (int j = 0; j < kConversionChains; ++j) {
    folded ^= static_cast<uint32_t>(static_cast<int>(v[j])) + static_cast<uint32_t>(j);
  }
  return folded;
}

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_INSTR_TYPE_CONVERSION_TYPE_CONVERSION_RECURRENCE_H_
