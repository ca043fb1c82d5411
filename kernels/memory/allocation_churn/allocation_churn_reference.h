// CPU reference of memory.allocation_churn.
#ifndef WARPWATCH_KERNELS_MEMORY_ALLOCATION_CHURN_ALLOCATION_CHURN_REFERENCE_H_
#define WARPWATCH_KERNELS_MEMORY_ALLOCATION_CHURN_ALLOCATION_CHURN_REFERENCE_H_

#include <cstdint>
#include <vector>

namespace warpwatch::kernels {

// out[i] = 2x + x (the sum rounded once) with x = SeededFloat(seed, i), for i in [0, n).
std::vector<float> AllocationChurnReference(int64_t n, uint64_t seed);

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_MEMORY_ALLOCATION_CHURN_ALLOCATION_CHURN_REFERENCE_H_
