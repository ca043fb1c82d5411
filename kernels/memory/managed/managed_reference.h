// CPU reference of memory.managed.
#ifndef WARPWATCH_KERNELS_MEMORY_MANAGED_MANAGED_REFERENCE_H_
#define WARPWATCH_KERNELS_MEMORY_MANAGED_MANAGED_REFERENCE_H_

#include <cstdint>
#include <vector>

namespace warpwatch::kernels {

// The host copy every variant's buffer starts from: SeededFloat(seed, i), i in [0, n).
std::vector<float> ManagedInput(int64_t n, uint64_t seed);

// out[i] = 2 * input[i].
std::vector<float> ManagedReference(const std::vector<float>& input);

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_MEMORY_MANAGED_MANAGED_REFERENCE_H_
