// CPU reference of control.unroll.
#ifndef WARPWATCH_KERNELS_CONTROL_UNROLL_UNROLL_REFERENCE_H_
#define WARPWATCH_KERNELS_CONTROL_UNROLL_UNROLL_REFERENCE_H_

#include <cstdint>
#include <vector>

namespace warpwatch::kernels {

// out[i] = kUnrollOuterReps passes of UnrollStep, k = 0..kUnrollInnerSteps-1, from y = x =
// SeededFloat(seed, i), for each i of `indices`: what every unroll factor must produce, bit for
// bit.
std::vector<float> UnrollReference(const std::vector<int64_t>& indices, uint64_t seed);

// The elements Verify checks: the first and last kUnrollVerifyEdge and every
// kUnrollVerifyStride-th between. An element costs the CPU 128 rounded operations, so all 2^24 of a
// nightly point would take seconds. Elements are independent, so a sample covering
// every warp position, both edges and the partial last block catches wrong indexing and results.
inline constexpr int64_t kUnrollVerifyEdge = 4096;
inline constexpr int64_t kUnrollVerifyStride = 61;
std::vector<int64_t> UnrollVerifiedElements(int64_t n);

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_CONTROL_UNROLL_UNROLL_REFERENCE_H_
