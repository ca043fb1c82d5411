// CPU reference of example.grid_stride (CUDA-free).
#ifndef WARPWATCH_KERNELS_EXAMPLE_GRID_STRIDE_GRID_STRIDE_REFERENCE_H_
#define WARPWATCH_KERNELS_EXAMPLE_GRID_STRIDE_GRID_STRIDE_REFERENCE_H_

#include <cstdint>
#include <vector>

namespace warpwatch::kernels {

// out[i] = 2 * SeededFloat(seed, i) + 1 for i in [0, n): what both variants write for an input
// filled with FillSeededFloats(seed).
std::vector<float> GridStrideReference(int64_t n, uint64_t seed);

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_EXAMPLE_GRID_STRIDE_GRID_STRIDE_REFERENCE_H_
