// CPU reference of occupancy.block_size.
#include "kernels/occupancy/block_size/block_size_reference.h"

#include <cmath>
#include <cstddef>

#include "kernels/core/seeded_values.h"

namespace warpwatch::kernels {

std::vector<float> SaxpyReference(int64_t n, uint64_t seed) {
  std::vector<float> out(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    const uint64_t u = static_cast<uint64_t>(i);
    out[static_cast<size_t>(i)] =
        std::fma(kSaxpyScale, SeededFloat(seed, u), SeededFloat(seed + 1, u));
  }
  return out;
}

}  // namespace warpwatch::kernels
