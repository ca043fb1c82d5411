// Inputs and CPU reference of occupancy.registers.
#ifndef WARPWATCH_KERNELS_OCCUPANCY_REGISTERS_REGISTERS_REFERENCE_H_
#define WARPWATCH_KERNELS_OCCUPANCY_REGISTERS_REGISTERS_REFERENCE_H_

#include <cstdint>
#include <vector>

namespace warpwatch::kernels {

// x[i] = SeededFloat(seed, i); coef[j] = SeededFloat(seed + 1, j) - 1 (in [-0.5, 0.5), exact).
std::vector<float> PolynomialCoefficients(uint64_t seed);

// Horner with fmaf in the kernel's order: bitwise what the device computes.
std::vector<float> PolynomialReference(int64_t n, uint64_t seed);

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_OCCUPANCY_REGISTERS_REGISTERS_REFERENCE_H_
