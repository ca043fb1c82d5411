// CPU reference of memory.local.
#ifndef WARPWATCH_KERNELS_MEMORY_LOCAL_LOCAL_REFERENCE_H_
#define WARPWATCH_KERNELS_MEMORY_LOCAL_LOCAL_REFERENCE_H_

#include <cstdint>
#include <vector>

namespace warpwatch::kernels {

// out[i] = the fold of local_array.h (rotation kLocalShift) over the array of `size` floats built
// from x = SeededFloat(seed, i): what both variants must produce, bit for bit.
std::vector<float> LocalReference(int64_t n, int size, uint64_t seed);

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_MEMORY_LOCAL_LOCAL_REFERENCE_H_
