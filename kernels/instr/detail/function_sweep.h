// The function sweep shared by instr.intrinsics and instr.trig_range: each thread evaluates one
// math function on kSweepCalls arguments (kSweepChains chains of arguments x0 + k * step) and
// stores the sum; an accuracy pass evaluates it once per input. The arguments are computed with
// the same rounded float operations on host and device, so the CPU reference sees the very same
// arguments.
#ifndef WARPWATCH_KERNELS_INSTR_DETAIL_FUNCTION_SWEEP_H_
#define WARPWATCH_KERNELS_INSTR_DETAIL_FUNCTION_SWEEP_H_

#include <cuda_runtime_api.h>

#include <cstdint>

#include "common/status/status.h"
#include "kernels/core/seeded_values.h"

namespace warpwatch::kernels::instr_detail {

enum class MathFn {
  kSinf,      // sinf(x)
  kSinfFast,  // __sinf(x)
  kExpf,      // expf(x)
  kExpfFast,  // __expf(x)
  kFdiv,      // x / y
  kFdividef,  // __fdividef(x, y)
  kRsqrtDiv,  // 1.0f / sqrtf(x)
  kRsqrtf,    // rsqrtf(x)
};

inline constexpr int kSweepChains = 4;
inline constexpr int kSweepCallsPerChain = 64;
inline constexpr int kSweepCalls = kSweepChains * kSweepCallsPerChain;

// Where a thread's arguments lie: x0 = (in - 1) * scale + offset, then x0 + step, x0 + 2 step ...
// (chain j starts at x0 + j * kSweepCallsPerChain * step). y (the divisor) = in + 0.25.
struct SweepDomain {
  float scale = 1;
  float offset = 1;
  float step = 1.0f / 256;
};

#if defined(__CUDA_ARCH__)
#define WW_SWEEP_ADD(a, b) __fadd_rn(a, b)
#define WW_SWEEP_MUL(a, b) __fmul_rn(a, b)
#else
#define WW_SWEEP_ADD(a, b) ((a) + (b))
#define WW_SWEEP_MUL(a, b) ((a) * (b))
#endif

// The thread's first argument (never contracted into an FMA: host and device round alike).
WW_HOST_DEVICE inline float SweepStart(float in, const SweepDomain& d) {
  return WW_SWEEP_ADD(WW_SWEEP_MUL(WW_SWEEP_ADD(in, -1.0f), d.scale), d.offset);
}
// First argument of chain j.
WW_HOST_DEVICE inline float SweepChainStart(float x0, int j, const SweepDomain& d) {
  return WW_SWEEP_ADD(x0, WW_SWEEP_MUL(static_cast<float>(j * kSweepCallsPerChain), d.step));
}
WW_HOST_DEVICE inline float SweepDivisor(float in) { return WW_SWEEP_ADD(in, 0.25f); }

// Thread t < n: out[t] = sum of f over its kSweepCalls arguments (float accumulation per chain,
// chains added in double). grid = ceil(n / block). Enqueued on `stream`; checks the launch.
Status LaunchFunctionSweep(MathFn fn, const SweepDomain& domain, const float* d_in, double* d_out,
                           int64_t n, unsigned grid, unsigned block, cudaStream_t stream);
const void* FunctionSweepKernel(MathFn fn);

// Accuracy pass: d_values[t] = f(SweepStart(d_in[t]), SweepDivisor(d_in[t])) for t < n.
Status LaunchFunctionValues(MathFn fn, const SweepDomain& domain, const float* d_in,
                            float* d_values, int64_t n, cudaStream_t stream);

}  // namespace warpwatch::kernels::instr_detail

#endif  // WARPWATCH_KERNELS_INSTR_DETAIL_FUNCTION_SWEEP_H_
