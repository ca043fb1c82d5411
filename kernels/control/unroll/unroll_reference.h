// CPU reference of control.unroll.
#ifndef WARPWATCH_KERNELS_CONTROL_UNROLL_UNROLL_REFERENCE_H_
#define WARPWATCH_KERNELS_CONTROL_UNROLL_UNROLL_REFERENCE_H_

#include <cstdint>
#include <vector>

namespace warpwatch::kernels {

// out[i] = kUnrollOuterReps passes of UnrollStep, k = 0..kUnrollInnerSteps-1, from y = x =
// SeededFloat(seed, i): what every unroll factor must produce, bit for bit.
std::vector<float> UnrollReference(int64_t n, uint64_t seed);

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_CONTROL_UNROLL_UNROLL_REFERENCE_H_
