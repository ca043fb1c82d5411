// CPU reference of memory.vector_width.
#include "kernels/memory/vector_width/vector_width_reference.h"

#include <cstddef>

#include "kernels/core/seeded_values.h"

namespace warpwatch::kernels {

std::vector<uint8_t> VectorWidthReference(int64_t bytes, uint64_t seed) {
  std::vector<uint8_t> out(static_cast<size_t>(bytes));
  for (int64_t i = 0; i < bytes; ++i) {
    out[static_cast<size_t>(i)] = SeededByte(seed, static_cast<uint64_t>(i));
  }
  return out;
}

}  // namespace warpwatch::kernels
