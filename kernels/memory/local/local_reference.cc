// CPU reference of memory.local.
#include "kernels/memory/local/local_reference.h"

#include <cstddef>

#include "kernels/core/seeded_values.h"
#include "kernels/memory/local/local_array.h"

namespace warpwatch::kernels {

std::vector<float> LocalReference(int64_t n, int size, uint64_t seed) {
  std::vector<float> out(static_cast<size_t>(n));
  std::vector<float> a(static_cast<size_t>(size));
  for (int64_t i = 0; i < n; ++i) {
    const float x = SeededFloat(seed, static_cast<uint64_t>(i));
    for (int k = 0; k < size; ++k) a[static_cast<size_t>(k)] = LocalArrayElement(x, k);
    float acc = 0.0f;
    for (int round = 0; round < kLocalRounds; ++round) {
      for (int j = 0; j < size; ++j) {
        acc = LocalFoldStep(acc, a[static_cast<size_t>((j + round + kLocalShift) % size)]);
      }
    }
    out[static_cast<size_t>(i)] = acc;
  }
  return out;
}

}  // namespace warpwatch::kernels
