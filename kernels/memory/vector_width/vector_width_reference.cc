// CPU reference of memory.vector_width.
#include "kernels/memory/vector_width/vector_width_reference.h"

#include <cstddef>

#include "kernels/core/parallel_for.h"
#include "kernels/core/seeded_values.h"

namespace warpwatch::kernels {

std::vector<uint8_t> VectorWidthReference(int64_t bytes, uint64_t seed) {
  std::vector<uint8_t> out(static_cast<size_t>(bytes));
  ParallelFor(bytes, [&](int, int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      out[static_cast<size_t>(i)] = SeededByte(seed, static_cast<uint64_t>(i));
    }
  });
  return out;
}

}  // namespace warpwatch::kernels
