// CPU reference of memory.coalescing: what every copy variant must produce.
#ifndef WARPWATCH_KERNELS_MEMORY_COALESCING_COALESCING_REFERENCE_H_
#define WARPWATCH_KERNELS_MEMORY_COALESCING_COALESCING_REFERENCE_H_

#include <cstdint>
#include <vector>

namespace warpwatch::kernels {

// out[i] = SeededFloat(seed, i * stride) for i in [0, n): the copy of an input filled with
// FillSeededFloats(seed), read at `stride` (1 for the contiguous, scattered and memcpy variants).
std::vector<float> CoalescingReference(int64_t n, int64_t stride, uint64_t seed);

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_MEMORY_COALESCING_COALESCING_REFERENCE_H_
