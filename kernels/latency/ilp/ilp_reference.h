// CPU reference of latency.ilp.
#ifndef WARPWATCH_KERNELS_LATENCY_ILP_ILP_REFERENCE_H_
#define WARPWATCH_KERNELS_LATENCY_ILP_ILP_REFERENCE_H_

#include <cstdint>
#include <vector>

namespace warpwatch::kernels {

// What LaunchIlpChains(ilp, ...) writes for a thread whose input is x.
float IlpReferenceValue(int ilp, float x);

// The threads Verify checks: every kIlpVerifyStride-th one and the last. A thread costs the CPU
// kIlpTotalFmas software-rounded FMAs (~0.1 ms), so checking all of a full-occupancy grid
// (270 K threads on an H100) would take most of a minute; the kernel has no cross-thread
// dependence, so a spread sample catches wrong chains, counts and sums.
inline constexpr int64_t kIlpVerifyStride = 61;
std::vector<int64_t> IlpVerifiedThreads(int64_t threads);

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_LATENCY_ILP_ILP_REFERENCE_H_
