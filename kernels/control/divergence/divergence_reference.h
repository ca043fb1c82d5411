// CPU reference of control.divergence.
#ifndef WARPWATCH_KERNELS_CONTROL_DIVERGENCE_DIVERGENCE_REFERENCE_H_
#define WARPWATCH_KERNELS_CONTROL_DIVERGENCE_DIVERGENCE_REFERENCE_H_

#include <cstdint>
#include <vector>

#include "kernels/control/divergence/divergence_kernels.h"

namespace warpwatch::kernels {

// out[i] = PathA(x) where DivergenceTakesPathA(branch, i), PathB(x) elsewhere, x =
// SeededFloat(seed, i): what every variant must produce, bit for bit.
std::vector<float> DivergenceReference(DivergenceBranch branch, int64_t n, uint64_t seed);

// Elements of [0, n) that take PathA under `branch`.
int64_t DivergencePathACount(DivergenceBranch branch, int64_t n);

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_CONTROL_DIVERGENCE_DIVERGENCE_REFERENCE_H_
