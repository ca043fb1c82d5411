// latency.ilp: the per-thread FMA chains, shared by the kernels and the CPU reference so both
// compute bit-identical results. A thread runs kIlpTotalFmas FMAs split over `ilp` independent
// chains; chain j starts at x + j/8 and steps c <- 0.999 c + 0.001.
#ifndef WARPWATCH_KERNELS_LATENCY_ILP_ILP_CHAINS_H_
#define WARPWATCH_KERNELS_LATENCY_ILP_ILP_CHAINS_H_

#include <cmath>

#include "kernels/core/seeded_values.h"

namespace warpwatch::kernels {

// FMAs per thread whatever the ILP: 16384 dependent FMAs at 4 cycles each keep a lone warp busy
// ~33 us, long enough to time at one block per SM.
inline constexpr int kIlpTotalFmas = 16384;

WW_HOST_DEVICE inline float IlpChainStart(float x, int chain) {
  return x + static_cast<float>(chain) * 0.125f;
}

WW_HOST_DEVICE inline float IlpStep(float c) {
#if defined(__CUDA_ARCH__)
  return __fmaf_rn(c, 0.999f, 0.001f);
#else
  return std::fma(c, 0.999f, 0.001f);
#endif
}

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_LATENCY_ILP_ILP_CHAINS_H_
