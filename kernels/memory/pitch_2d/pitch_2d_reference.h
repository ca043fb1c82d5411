// CPU reference of memory.pitch_2d.
#ifndef WARPWATCH_KERNELS_MEMORY_PITCH_2D_PITCH_2D_REFERENCE_H_
#define WARPWATCH_KERNELS_MEMORY_PITCH_2D_PITCH_2D_REFERENCE_H_

#include <cstdint>
#include <vector>

namespace warpwatch::kernels {

// The packed width x height result: element (y, x) = 2 * SeededFloat(seed, y * width + x) (the
// input holds SeededFloat(seed, y * width + x) at (y, x) in either layout).
std::vector<float> Pitch2dReference(int64_t width, int64_t height, uint64_t seed);

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_MEMORY_PITCH_2D_PITCH_2D_REFERENCE_H_
