// CPU reference of example.grid_stride.
#include "kernels/example/grid_stride/grid_stride_reference.h"

#include <cstddef>

#include "kernels/core/seeded_values.h"

namespace warpwatch::kernels {

std::vector<float> GridStrideReference(int64_t n, uint64_t seed) {
  std::vector<float> out(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    out[static_cast<size_t>(i)] = 2.0f * SeededFloat(seed, static_cast<uint64_t>(i)) + 1.0f;
  }
  return out;
}

}  // namespace warpwatch::kernels
