// CPU reference of memory.coalescing.
#include "kernels/memory/coalescing/coalescing_reference.h"

#include <cstddef>

#include "kernels/core/parallel_for.h"
#include "kernels/core/seeded_values.h"

namespace warpwatch::kernels {

std::vector<float> CoalescingReference(int64_t n, int64_t stride, uint64_t seed) {
  std::vector<float> out(static_cast<size_t>(n));
  ParallelFor(n, [&](int, int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      out[static_cast<size_t>(i)] = SeededFloat(seed, static_cast<uint64_t>(i * stride));
    }
  });
  return out;
}

}  // namespace warpwatch::kernels
