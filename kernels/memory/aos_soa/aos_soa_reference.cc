// CPU reference of memory.aos_soa.
#include "kernels/memory/aos_soa/aos_soa_reference.h"

#include <cstddef>

#include "kernels/core/parallel_for.h"
#include "kernels/core/seeded_values.h"

namespace warpwatch::kernels {

std::vector<float> AosSoaReference(ParticleLayout layout, int64_t n, uint64_t seed) {
  std::vector<float> out(static_cast<size_t>(n) * kParticleFields);
  // By particle: each thread writes its particles' fields (disjoint in either layout).
  ParallelFor(n, [&](int, int64_t begin, int64_t end) {
    for (int f = 0; f < kParticleFields; ++f) {
      for (int64_t i = begin; i < end; ++i) {
        float v = SeededFloat(seed + f, static_cast<uint64_t>(i));
        if (f == 0) v += 1.0f;
        out[static_cast<size_t>(ParticleFloatIndex(layout, n, i, f))] = v;
      }
    }
  });
  return out;
}

}  // namespace warpwatch::kernels
