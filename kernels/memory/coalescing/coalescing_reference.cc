// CPU reference of memory.coalescing.
#include "kernels/memory/coalescing/coalescing_reference.h"

#include <cstddef>

#include "kernels/core/seeded_values.h"

namespace warpwatch::kernels {

std::vector<float> CoalescingReference(int64_t n, int64_t stride, uint64_t seed) {
  std::vector<float> out(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    out[static_cast<size_t>(i)] = SeededFloat(seed, static_cast<uint64_t>(i * stride));
  }
  return out;
}

}  // namespace warpwatch::kernels
