// CPU reference of control.divergence.
#ifndef WARPWATCH_KERNELS_CONTROL_DIVERGENCE_DIVERGENCE_REFERENCE_H_
#define WARPWATCH_KERNELS_CONTROL_DIVERGENCE_DIVERGENCE_REFERENCE_H_

#include <cstdint>
#include <vector>

#include "kernels/control/divergence/divergence_kernels.h"

namespace warpwatch::kernels {

// out[i] = PathA(x) where DivergenceTakesPathA(branch, i), PathB(x) elsewhere, x =
// SeededFloat(seed, i), for each i of `indices`: what every variant must produce, bit for bit.
std::vector<float> DivergenceReference(DivergenceBranch branch, const std::vector<int64_t>& indices,
                                       uint64_t seed);

// The elements Verify checks: the first and last kDivergenceVerifyEdge and every
// kDivergenceVerifyStride-th between. An element costs the CPU kDivergencePathOps rounded
// operations, so all 2^24 of a nightly point would take most of a minute; elements are
// independent, so a sample covering every warp position, both edges and the partial last block
// catches wrong paths, counts and indexing.
inline constexpr int64_t kDivergenceVerifyEdge = 4096;
inline constexpr int64_t kDivergenceVerifyStride = 61;
std::vector<int64_t> DivergenceVerifiedElements(int64_t n);

// Elements of [0, n) that take PathA under `branch`.
int64_t DivergencePathACount(DivergenceBranch branch, int64_t n);

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_CONTROL_DIVERGENCE_DIVERGENCE_REFERENCE_H_
