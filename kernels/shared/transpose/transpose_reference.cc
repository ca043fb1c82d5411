// CPU reference of shared.transpose.
#include "kernels/shared/transpose/transpose_reference.h"

#include <cstddef>

#include "kernels/core/seeded_values.h"

namespace warpwatch::kernels {

std::vector<float> TransposeReference(int64_t side, bool transpose, uint64_t seed) {
  std::vector<float> out(static_cast<size_t>(side * side));
  for (int64_t r = 0; r < side; ++r) {
    for (int64_t c = 0; c < side; ++c) {
      const float v = SeededFloat(seed, static_cast<uint64_t>(r * side + c));
      out[static_cast<size_t>(transpose ? c * side + r : r * side + c)] = v;
    }
  }
  return out;
}

}  // namespace warpwatch::kernels
