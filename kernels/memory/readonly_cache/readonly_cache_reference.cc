// CPU reference of memory.readonly_cache.
#include "kernels/memory/readonly_cache/readonly_cache_reference.h"

#include <cstddef>

#include "kernels/core/seeded_values.h"
#include "kernels/memory/readonly_cache/readonly_cache_kernels.h"

namespace warpwatch::kernels {

std::vector<float> ReadonlyCacheReference(int64_t n, uint64_t seed, uint64_t index_seed) {
  std::vector<float> out(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    out[static_cast<size_t>(i)] =
        SeededFloat(seed, static_cast<uint64_t>(ReadonlyGatherIndex(index_seed, i, n)));
  }
  return out;
}

}  // namespace warpwatch::kernels
