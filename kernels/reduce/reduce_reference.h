// Inputs and CPU reference of reduce: n seeded ints whose exact sum fits in an int.
#ifndef WARPWATCH_KERNELS_REDUCE_REDUCE_REFERENCE_H_
#define WARPWATCH_KERNELS_REDUCE_REDUCE_REFERENCE_H_

#include <cstdint>

namespace warpwatch::kernels {

// Largest input value for n ints such that any sum of them fits in int32 (at most 255, the
// book's `rand() & 0xFF`); 0 when n is too large for that (n > INT32_MAX).
int ReduceMaxValue(int64_t n);

// Exact sum of SeededInt(seed, i, max_value) for i in [0, n).
int64_t ReduceReference(int64_t n, uint64_t seed, int max_value);

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_REDUCE_REDUCE_REFERENCE_H_
