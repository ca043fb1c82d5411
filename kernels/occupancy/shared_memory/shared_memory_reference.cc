// CPU reference of occupancy.shared_memory.
#include "kernels/occupancy/shared_memory/shared_memory_reference.h"

#include <algorithm>
#include <cstddef>

#include "kernels/core/seeded_values.h"

namespace warpwatch::kernels {

std::vector<float> SharedReverseReference(int64_t n, int64_t block, uint64_t seed) {
  std::vector<float> out(static_cast<size_t>(n));
  for (int64_t start = 0; start < n; start += block) {
    const int64_t m = std::min(block, n - start);
    for (int64_t t = 0; t < m; ++t) {
      out[static_cast<size_t>(start + t)] =
          SeededFloat(seed, static_cast<uint64_t>(start + m - 1 - t));
    }
  }
  return out;
}

}  // namespace warpwatch::kernels
