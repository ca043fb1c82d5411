// Inputs and CPU reference of occupancy.block_size.
#ifndef WARPWATCH_KERNELS_OCCUPANCY_BLOCK_SIZE_BLOCK_SIZE_REFERENCE_H_
#define WARPWATCH_KERNELS_OCCUPANCY_BLOCK_SIZE_BLOCK_SIZE_REFERENCE_H_

#include <cstdint>
#include <vector>

namespace warpwatch::kernels {

// The SAXPY scale; x[i] = SeededFloat(seed, i), y[i] = SeededFloat(seed + 1, i).
inline constexpr float kSaxpyScale = 2.5f;

// fmaf(kSaxpyScale, x[i], y[i]) for i in [0, n), correctly rounded as on the device.
std::vector<float> SaxpyReference(int64_t n, uint64_t seed);

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_OCCUPANCY_BLOCK_SIZE_BLOCK_SIZE_REFERENCE_H_
