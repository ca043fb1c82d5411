// CPU reference of occupancy.registers.
#include "kernels/occupancy/registers/registers_reference.h"

#include <cmath>
#include <cstddef>

#include "kernels/core/seeded_values.h"
#include "kernels/occupancy/registers/registers_kernels.h"

namespace warpwatch::kernels {

std::vector<float> PolynomialCoefficients(uint64_t seed) {
  std::vector<float> coef(kPolyTerms);
  for (int j = 0; j < kPolyTerms; ++j) {
    coef[static_cast<size_t>(j)] = SeededFloat(seed + 1, static_cast<uint64_t>(j)) - 1.0f;
  }
  return coef;
}

std::vector<float> PolynomialReference(int64_t n, uint64_t seed) {
  const std::vector<float> c = PolynomialCoefficients(seed);
  std::vector<float> out(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    const float t = SeededFloat(seed, static_cast<uint64_t>(i));
    float acc = c[kPolyTerms - 1];
    for (int j = kPolyTerms - 2; j >= 0; --j) acc = std::fma(acc, t, c[static_cast<size_t>(j)]);
    out[static_cast<size_t>(i)] = acc;
  }
  return out;
}

}  // namespace warpwatch::kernels
