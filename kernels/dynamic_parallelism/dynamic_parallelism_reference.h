// CPU reference of dynamic_parallelism: the sum every variant must produce.
#ifndef WARPWATCH_KERNELS_DYNAMIC_PARALLELISM_DYNAMIC_PARALLELISM_REFERENCE_H_
#define WARPWATCH_KERNELS_DYNAMIC_PARALLELISM_DYNAMIC_PARALLELISM_REFERENCE_H_

#include <cstdint>

namespace warpwatch::kernels {

// Inputs are SeededInt(seed, i, kNestedMaxValue): every sum of up to 2^24 of them fits an int.
inline constexpr int kNestedMaxValue = 64;

// Sum of SeededInt(seed, i, kNestedMaxValue) for i < n.
int64_t NestedReductionReference(int64_t n, uint64_t seed);

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_DYNAMIC_PARALLELISM_DYNAMIC_PARALLELISM_REFERENCE_H_
