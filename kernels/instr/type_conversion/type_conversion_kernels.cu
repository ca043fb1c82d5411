// The instr.type_conversion kernels.
#include "kernels/core/cuda_check.h"
#include "kernels/instr/type_conversion/type_conversion_kernels.h"
#include "kernels/instr/type_conversion/type_conversion_recurrence.h"

namespace warpwatch::kernels {
namespace {

template <bool kDoubleConstant>
__global__ void FloatKernel(const float* __restrict__ in, double* __restrict__ out, int64_t n,
                            int iterations) {
  const int64_t t = int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (t >= n) return;
  const float x = in[t];
  float v[kConversionChains];
  float c[kConversionChains];
#pragma unroll
  for (int j = 0; j < kConversionChains; ++j) v[j] = c[j] = ConversionStart(x, j);
#pragma unroll 8
  for (int i = 0; i < iterations; ++i) {
#pragma unroll
    for (int j = 0; j < kConversionChains; ++j) {
      if constexpr (kDoubleConstant) {
        v[j] = v[j] * 0.5 + c[j];  // the guide's example: 0.5 is a double
      } else {
        v[j] = v[j] * 0.5f + c[j];
      }
    }
  }
  double sum = 0;
#pragma unroll
  for (int j = 0; j < kConversionChains; ++j) sum += static_cast<double>(v[j]);
  out[t] = sum;
}

template <typename T>
__global__ void IntKernel(const float* __restrict__ in, double* __restrict__ out, int64_t n,
                          int iterations) {
  const int64_t t = int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (t >= n) return;
  out[t] = static_cast<double>(ConversionIntLoop<T>(__float_as_uint(in[t]), iterations));
}

}  // namespace

const void* TypeConversionKernel(ConversionKind kind) {
  switch (kind) {
    case ConversionKind::kDoubleConstant:
      return reinterpret_cast<const void*>(&FloatKernel<true>);
    case ConversionKind::kFloatConstant:
      return reinterpret_cast<const void*>(&FloatKernel<false>);
    case ConversionKind::kChar:
      return reinterpret_cast<const void*>(&IntKernel<signed char>);
    case ConversionKind::kShort:
      return reinterpret_cast<const void*>(&IntKernel<short>);
    case ConversionKind::kInt:
      return reinterpret_cast<const void*>(&IntKernel<int>);
  }
  return nullptr;
}

Status LaunchTypeConversion(ConversionKind kind, const float* d_in, double* d_out, int64_t n,
                            unsigned grid, unsigned block, cudaStream_t stream) {
  const int it = kConversionIterations;
  switch (kind) {
    case ConversionKind::kDoubleConstant:
      FloatKernel<true><<<grid, block, 0, stream>>>(d_in, d_out, n, it);
      break;
    case ConversionKind::kFloatConstant:
      FloatKernel<false><<<grid, block, 0, stream>>>(d_in, d_out, n, it);
      break;
    case ConversionKind::kChar:
      IntKernel<signed char><<<grid, block, 0, stream>>>(d_in, d_out, n, it);
      break;
    case ConversionKind::kShort:
      IntKernel<short><<<grid, block, 0, stream>>>(d_in, d_out, n, it);
      break;
    case ConversionKind::kInt:
      IntKernel<int><<<grid, block, 0, stream>>>(d_in, d_out, n, it);
      break;
  }
  CUDA_RETURN_IF_LAUNCH_ERROR();
  return OkStatus();
}

}  // namespace warpwatch::kernels
