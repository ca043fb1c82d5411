// CPU reference of dynamic_parallelism.
#include "kernels/dynamic_parallelism/dynamic_parallelism_reference.h"

#include "kernels/core/seeded_values.h"

namespace warpwatch::kernels {

int64_t NestedReductionReference(int64_t n, uint64_t seed) {
  int64_t sum = 0;
  for (int64_t i = 0; i < n; ++i) sum += SeededInt(seed, static_cast<uint64_t>(i), kNestedMaxValue);
  return sum;
}

}  // namespace warpwatch::kernels
