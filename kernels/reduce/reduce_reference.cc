// CPU reference of reduce.
#include "kernels/reduce/reduce_reference.h"

#include <algorithm>
#include <limits>

#include "kernels/core/seeded_values.h"

namespace warpwatch::kernels {

int ReduceMaxValue(int64_t n) {
  if (n <= 0) return 255;
  const int64_t bound = std::numeric_limits<int32_t>::max() / n;
  return static_cast<int>(std::min<int64_t>(255, bound));
}

int64_t ReduceReference(int64_t n, uint64_t seed, int max_value) {
  int64_t sum = 0;
  for (int64_t i = 0; i < n; ++i) sum += SeededInt(seed, static_cast<uint64_t>(i), max_value);
  return sum;
}

}  // namespace warpwatch::kernels
