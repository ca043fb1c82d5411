// The instr.integer_division kernels.
#include "kernels/core/cuda_check.h"
#include "kernels/instr/integer_division/integer_division_kernels.h"

namespace warpwatch::kernels {
namespace {

template <bool kShift>
__global__ void DivisionKernel(const float* __restrict__ in, double* __restrict__ out, int64_t n,
                               DivisionOperands op, int iterations) {
  const int64_t t = int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (t >= n) return;
  out[t] = static_cast<double>(DivisionLoop<kShift>(__float_as_uint(in[t]), op, iterations));
}

}  // namespace

const void* IntegerDivisionKernel(bool shift) {
  return shift ? reinterpret_cast<const void*>(&DivisionKernel<true>)
               : reinterpret_cast<const void*>(&DivisionKernel<false>);
}

Status LaunchIntegerDivision(bool shift, const DivisionOperands& op, const float* d_in,
                             double* d_out, int64_t n, unsigned grid, unsigned block,
                             cudaStream_t stream) {
  if (shift) {
    DivisionKernel<true><<<grid, block, 0, stream>>>(d_in, d_out, n, op, kDivisionIterations);
  } else {
    DivisionKernel<false><<<grid, block, 0, stream>>>(d_in, d_out, n, op, kDivisionIterations);
  }
  CUDA_RETURN_IF_LAUNCH_ERROR();
  return OkStatus();
}

}  // namespace warpwatch::kernels
