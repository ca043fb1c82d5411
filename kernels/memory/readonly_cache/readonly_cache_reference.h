// CPU reference of memory.readonly_cache.
#ifndef WARPWATCH_KERNELS_MEMORY_READONLY_CACHE_READONLY_CACHE_REFERENCE_H_
#define WARPWATCH_KERNELS_MEMORY_READONLY_CACHE_READONLY_CACHE_REFERENCE_H_

#include <cstdint>
#include <vector>

namespace warpwatch::kernels {

// out[i] = SeededFloat(seed, ReadonlyGatherIndex(index_seed, i, n)) for i in [0, n): the gather
// of an input filled with FillSeededFloats(seed) at indices filled with FillReadonlyIndices.
std::vector<float> ReadonlyCacheReference(int64_t n, uint64_t seed, uint64_t index_seed);

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_MEMORY_READONLY_CACHE_READONLY_CACHE_REFERENCE_H_
