// The suite's deterministic input values, element by element, identical on host and device: a
// device kernel fills a buffer (seeded_fill.h) and a CPU reference recomputes any element from
// (seed, index) without keeping a host copy of the input. Never zero.
#ifndef WARPWATCH_KERNELS_CORE_SEEDED_VALUES_H_
#define WARPWATCH_KERNELS_CORE_SEEDED_VALUES_H_

#include <cstdint>

#if defined(__CUDACC__)
#define WW_HOST_DEVICE __host__ __device__
#else
#define WW_HOST_DEVICE
#endif

namespace warpwatch::kernels {

// The suite's one seed; a case that needs several independent inputs uses kSeed + k.
inline constexpr uint64_t kSeed = 0x5eed0f5eedc0deULL;

// Counter-based hash (splitmix64 finaliser): the value depends only on (seed, index).
WW_HOST_DEVICE inline uint64_t SeededHash(uint64_t seed, uint64_t index) {
  uint64_t z = seed + (index + 1) * 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// Uniform in [0.5, 1.5) on a 2^-24 grid: exactly representable, never zero.
WW_HOST_DEVICE inline float SeededFloat(uint64_t seed, uint64_t index) {
  const uint32_t k = static_cast<uint32_t>(SeededHash(seed, index) >> 40);
  return 0.5f + static_cast<float>(k) * (1.0f / 16777216.0f);
}

// Uniform in [1, max_value] (max_value >= 1): never zero.
WW_HOST_DEVICE inline int SeededInt(uint64_t seed, uint64_t index, int max_value) {
  return 1 + static_cast<int>(SeededHash(seed, index) % static_cast<uint64_t>(max_value));
}

// Uniform in [1, 255]: never zero.
WW_HOST_DEVICE inline uint8_t SeededByte(uint64_t seed, uint64_t index) {
  return static_cast<uint8_t>(1 + SeededHash(seed, index) % 255);
}

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_CORE_SEEDED_VALUES_H_
