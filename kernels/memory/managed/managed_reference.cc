// CPU reference of memory.managed.
#include "kernels/memory/managed/managed_reference.h"

#include <cstddef>

#include "kernels/core/seeded_values.h"

namespace warpwatch::kernels {

std::vector<float> ManagedInput(int64_t n, uint64_t seed) {
  std::vector<float> input(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    input[static_cast<size_t>(i)] = SeededFloat(seed, static_cast<uint64_t>(i));
  }
  return input;
}

std::vector<float> ManagedReference(const std::vector<float>& input) {
  std::vector<float> out(input.size());
  for (size_t i = 0; i < input.size(); ++i) out[i] = 2.0f * input[i];
  return out;
}

}  // namespace warpwatch::kernels
