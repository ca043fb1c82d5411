// CPU reference of instr.syncthreads.
#include "kernels/instr/syncthreads/syncthreads_reference.h"

#include <cstring>

#include "kernels/core/seeded_values.h"

namespace warpwatch::kernels {
namespace {

uint32_t StartValue(uint64_t seed, int64_t n, int64_t t) {
  if (t >= n) return 0;
  const float x = SeededFloat(seed, static_cast<uint64_t>(t));
  uint32_t bits = 0;
  std::memcpy(&bits, &x, sizeof(bits));
  return bits;
}

}  // namespace

double BarrierReference(BarrierKind kind, uint64_t seed, int64_t n, int64_t t, int iterations) {
  uint32_t v = StartValue(seed, n, t);
  uint32_t w = StartValue(seed, n, t ^ 1);  // the partner's value
  for (int i = 0; i < iterations; ++i) {
    const uint32_t u = static_cast<uint32_t>(i);
    if (kind == BarrierKind::kNone) {
      v = v * 3u + v + u;
    } else {
      const uint32_t next_v = v * 3u + w + u;
      w = w * 3u + v + u;
      v = next_v;
    }
  }
  return static_cast<double>(v);
}

}  // namespace warpwatch::kernels
