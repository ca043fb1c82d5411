// CPU reference of occupancy.registers.
#include "kernels/occupancy/registers/registers_reference.h"

#include <array>
#include <cmath>
#include <cstddef>

#include "kernels/core/seeded_values.h"
#include "kernels/occupancy/registers/registers_recurrence.h"

namespace warpwatch::kernels {

float RecurrenceOfByte(uint8_t b) {
  const float x = RecurrenceInput(b);
  std::array<float, kStateWords> s{};
  for (int k = 0; k < kStateWords; ++k) {
    s[static_cast<size_t>(k)] = std::fma(x, InitScale(k), InitOffset(k));
  }
  float p = x;
  for (int r = 0; r < kRounds; ++r) {
    for (int k = 0; k < kStateWords; ++k) {
      float& sk = s[static_cast<size_t>(k)];
      p = std::fma(FlipCarry(k) ? -p : p, sk, FlipInput(k) ? -x : x);
      sk = p;
    }
  }
  return p;
}

std::vector<float> RecurrenceReference(int64_t n, uint64_t seed) {
  std::array<float, 256> by_byte{};
  for (int b = 0; b < 256; ++b) {
    by_byte[static_cast<size_t>(b)] = RecurrenceOfByte(static_cast<uint8_t>(b));
  }
  std::vector<float> out(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    out[static_cast<size_t>(i)] = by_byte[SeededByte(seed, static_cast<uint64_t>(i))];
  }
  return out;
}

}  // namespace warpwatch::kernels
