// The function sweep's kernels: one instantiation per math function.
#include "kernels/core/cuda_check.h"
#include "kernels/instr/detail/function_sweep.h"

namespace warpwatch::kernels::instr_detail {
namespace {

template <MathFn kFn>
__device__ __forceinline__ float Apply(float x, float y) {
  if constexpr (kFn == MathFn::kSinf) return sinf(x);
  if constexpr (kFn == MathFn::kSinfFast) return __sinf(x);
  if constexpr (kFn == MathFn::kExpf) return expf(x);
  if constexpr (kFn == MathFn::kExpfFast) return __expf(x);
  if constexpr (kFn == MathFn::kFdiv) return x / y;
  if constexpr (kFn == MathFn::kFdividef) return __fdividef(x, y);
  if constexpr (kFn == MathFn::kRsqrtDiv) return 1.0f / sqrtf(x);
  if constexpr (kFn == MathFn::kRsqrtf) return rsqrtf(x);
  return 0.0f;
}

template <MathFn kFn>
__global__ void SweepKernel(const float* __restrict__ in, double* __restrict__ out, int64_t n,
                            SweepDomain d) {
  const int64_t t = int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (t >= n) return;
  const float x0 = SweepStart(in[t], d);
  const float y = SweepDivisor(in[t]);
  float x[kSweepChains];
  float acc[kSweepChains];
#pragma unroll
  for (int j = 0; j < kSweepChains; ++j) {
    x[j] = SweepChainStart(x0, j, d);
    acc[j] = 0.0f;
  }
#pragma unroll 4
  for (int k = 0; k < kSweepCallsPerChain; ++k) {
#pragma unroll
    for (int j = 0; j < kSweepChains; ++j) {
      acc[j] += Apply<kFn>(x[j], y);
      x[j] = __fadd_rn(x[j], d.step);
    }
  }
  double sum = 0;
#pragma unroll
  for (int j = 0; j < kSweepChains; ++j) sum += static_cast<double>(acc[j]);
  out[t] = sum;
}

template <MathFn kFn>
__global__ void ValuesKernel(const float* __restrict__ in, float* __restrict__ values, int64_t n,
                             SweepDomain d) {
  const int64_t t = int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (t >= n) return;
  values[t] = Apply<kFn>(SweepStart(in[t], d), SweepDivisor(in[t]));
}

template <template <MathFn> class Visitor>
auto Dispatch(MathFn fn) {
  switch (fn) {
    case MathFn::kSinf:
      return Visitor<MathFn::kSinf>::Get();
    case MathFn::kSinfFast:
      return Visitor<MathFn::kSinfFast>::Get();
    case MathFn::kExpf:
      return Visitor<MathFn::kExpf>::Get();
    case MathFn::kExpfFast:
      return Visitor<MathFn::kExpfFast>::Get();
    case MathFn::kFdiv:
      return Visitor<MathFn::kFdiv>::Get();
    case MathFn::kFdividef:
      return Visitor<MathFn::kFdividef>::Get();
    case MathFn::kRsqrtDiv:
      return Visitor<MathFn::kRsqrtDiv>::Get();
    case MathFn::kRsqrtf:
      return Visitor<MathFn::kRsqrtf>::Get();
  }
  return Visitor<MathFn::kSinf>::Get();
}

template <MathFn kFn>
struct SweepOf {
  static auto Get() { return &SweepKernel<kFn>; }
};
template <MathFn kFn>
struct ValuesOf {
  static auto Get() { return &ValuesKernel<kFn>; }
};

}  // namespace

const void* FunctionSweepKernel(MathFn fn) {
  return reinterpret_cast<const void*>(Dispatch<SweepOf>(fn));
}

Status LaunchFunctionSweep(MathFn fn, const SweepDomain& domain, const float* d_in, double* d_out,
                           int64_t n, unsigned grid, unsigned block, cudaStream_t stream) {
  auto* kernel = Dispatch<SweepOf>(fn);
  kernel<<<grid, block, 0, stream>>>(d_in, d_out, n, domain);
  CUDA_RETURN_IF_LAUNCH_ERROR();
  return OkStatus();
}

Status LaunchFunctionValues(MathFn fn, const SweepDomain& domain, const float* d_in,
                            float* d_values, int64_t n, cudaStream_t stream) {
  constexpr unsigned kBlock = 256;
  const unsigned grid = static_cast<unsigned>((n + kBlock - 1) / kBlock);
  auto* kernel = Dispatch<ValuesOf>(fn);
  kernel<<<grid, kBlock, 0, stream>>>(d_in, d_values, n, domain);
  CUDA_RETURN_IF_LAUNCH_ERROR();
  return OkStatus();
}

}  // namespace warpwatch::kernels::instr_detail
