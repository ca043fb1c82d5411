// CPU reference of control.unroll.
#include "kernels/control/unroll/unroll_reference.h"

#include <cstddef>

#include "kernels/control/unroll/unroll_step.h"
#include "kernels/core/seeded_values.h"

namespace warpwatch::kernels {

std::vector<float> UnrollReference(int64_t n, uint64_t seed) {
  std::vector<float> out(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    const float x = SeededFloat(seed, static_cast<uint64_t>(i));
    float y = x;
    for (int rep = 0; rep < kUnrollOuterReps; ++rep) {
      for (int k = 0; k < kUnrollInnerSteps; ++k) y = UnrollStep(y, x, k);
    }
    out[static_cast<size_t>(i)] = y;
  }
  return out;
}

}  // namespace warpwatch::kernels
