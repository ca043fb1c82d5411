// CPU reference of memory.allocation_churn.
#include "kernels/memory/allocation_churn/allocation_churn_reference.h"

#include <cstddef>

#include "kernels/core/seeded_values.h"

namespace warpwatch::kernels {

std::vector<float> AllocationChurnReference(int64_t n, uint64_t seed) {
  std::vector<float> out(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    const float x = SeededFloat(seed, static_cast<uint64_t>(i));
    const float twice = 2.0f * x;
    out[static_cast<size_t>(i)] = twice + x;
  }
  return out;
}

}  // namespace warpwatch::kernels
