// CPU reference of memory.pitch_2d.
#include "kernels/memory/pitch_2d/pitch_2d_reference.h"

#include <cstddef>

#include "kernels/core/seeded_values.h"

namespace warpwatch::kernels {

std::vector<float> Pitch2dReference(int64_t width, int64_t height, uint64_t seed) {
  const int64_t count = width * height;
  std::vector<float> out(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i) {
    out[static_cast<size_t>(i)] = 2.0f * SeededFloat(seed, static_cast<uint64_t>(i));
  }
  return out;
}

}  // namespace warpwatch::kernels
