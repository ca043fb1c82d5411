// CPU reference of occupancy.shared_memory.
#ifndef WARPWATCH_KERNELS_OCCUPANCY_SHARED_MEMORY_SHARED_MEMORY_REFERENCE_H_
#define WARPWATCH_KERNELS_OCCUPANCY_SHARED_MEMORY_SHARED_MEMORY_REFERENCE_H_

#include <cstdint>
#include <vector>

namespace warpwatch::kernels {

// The input (SeededFloat(seed, i)) with each block-sized slice reversed, the last, shorter slice
// reversed within itself: what LaunchSharedReverse writes whatever its shared memory size.
std::vector<float> SharedReverseReference(int64_t n, int64_t block, uint64_t seed);

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_OCCUPANCY_SHARED_MEMORY_SHARED_MEMORY_REFERENCE_H_
