// CPU reference of memory.constant.
#include "kernels/memory/constant/constant_reference.h"

#include <cmath>
#include <cstddef>

#include "kernels/core/parallel_for.h"
#include "kernels/core/seeded_values.h"

namespace warpwatch::kernels {

std::vector<float> ConstantReference(ConstantAccess access, int64_t n, int64_t block,
                                     uint64_t seed) {
  std::vector<float> table(kConstantTableWords);
  for (int w = 0; w < kConstantTableWords; ++w) {
    table[static_cast<size_t>(w)] = SeededFloat(seed, static_cast<uint64_t>(w));
  }
  std::vector<float> out(static_cast<size_t>(n));
  ParallelFor(n, [&](int, int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      const int64_t base = ConstantBase(access, i / block, i % block);
      float acc = 0.0f;
      for (int r = 0; r < kConstantReads; ++r) {
        acc = std::fma(acc, 0.5f, table[static_cast<size_t>((base + r) % kConstantTableWords)]);
      }
      out[static_cast<size_t>(i)] = acc;
    }
  });
  return out;
}

}  // namespace warpwatch::kernels
