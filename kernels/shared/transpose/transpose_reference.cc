// CPU reference of shared.transpose.
#include "kernels/shared/transpose/transpose_reference.h"

#include <cstddef>

#include "kernels/core/parallel_for.h"
#include "kernels/core/seeded_values.h"

namespace warpwatch::kernels {

std::vector<float> TransposeReference(int64_t side, bool transpose, uint64_t seed) {
  std::vector<float> out(static_cast<size_t>(side * side));
  // By output rows, so each thread writes its own contiguous part (input row c of a transpose).
  ParallelFor(side * side, [&](int, int64_t begin, int64_t end) {
    for (int64_t o = begin; o < end; ++o) {
      const int64_t r = o / side, c = o % side;
      const int64_t in = transpose ? c * side + r : o;
      out[static_cast<size_t>(o)] = SeededFloat(seed, static_cast<uint64_t>(in));
    }
  });
  return out;
}

}  // namespace warpwatch::kernels
