// CPU reference of memory.alignment.
#ifndef WARPWATCH_KERNELS_MEMORY_ALIGNMENT_ALIGNMENT_REFERENCE_H_
#define WARPWATCH_KERNELS_MEMORY_ALIGNMENT_ALIGNMENT_REFERENCE_H_

#include <cstdint>
#include <vector>

namespace warpwatch::kernels {

// out[i] = SeededFloat(seed, i + offset) for i in [0, n): the copy of an input filled with
// FillSeededFloats(seed), read from element `offset` on.
std::vector<float> AlignmentReference(int64_t n, int64_t offset, uint64_t seed);

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_MEMORY_ALIGNMENT_ALIGNMENT_REFERENCE_H_
