// CPU reference of memory.alignment.
#include "kernels/memory/alignment/alignment_reference.h"

#include <cstddef>

#include "kernels/core/seeded_values.h"

namespace warpwatch::kernels {

std::vector<float> AlignmentReference(int64_t n, int64_t offset, uint64_t seed) {
  std::vector<float> out(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    out[static_cast<size_t>(i)] = SeededFloat(seed, static_cast<uint64_t>(i + offset));
  }
  return out;
}

}  // namespace warpwatch::kernels
