// CPU reference of concurrency.streams.
#include "kernels/concurrency/streams/streams_reference.h"

#include <cmath>

#include "kernels/concurrency/streams/streams_kernels.h"
#include "kernels/core/seeded_values.h"

namespace warpwatch::kernels {

float StreamWorkReference(uint64_t seed, int64_t i, int iterations) {
  const float x = SeededFloat(seed, static_cast<uint64_t>(i));
  const float m = StreamWorkMultiplier();
  float v = x;
  for (int k = 0; k < iterations; ++k) v = std::fma(v, m, x);
  return v;
}

double HiddenFraction(double serial_seconds, double overlapped_seconds) {
  if (serial_seconds <= 0 || overlapped_seconds <= 0) return 0;
  return 1.0 - overlapped_seconds / serial_seconds;
}

void ChunkRange(int64_t n, int chunks, int k, int64_t* begin, int64_t* end) {
  const int64_t base = n / chunks;
  const int64_t extra = n % chunks;
  *begin = k * base + (k < extra ? k : extra);
  *end = *begin + base + (k < extra ? 1 : 0);
}

}  // namespace warpwatch::kernels
