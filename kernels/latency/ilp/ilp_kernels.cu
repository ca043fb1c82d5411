// The latency.ilp kernels: one template per number of independent chains.
#include "kernels/core/cuda_check.h"
#include "kernels/latency/ilp/ilp_chains.h"
#include "kernels/latency/ilp/ilp_kernels.h"

namespace warpwatch::kernels {
namespace {

template <int kIlp>
__global__ void IlpKernelT(const float* __restrict__ in, float* __restrict__ out) {
  const int64_t t = int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  const float x = in[t];
  float c[kIlp];
#pragma unroll
  for (int j = 0; j < kIlp; ++j) c[j] = IlpChainStart(x, j);
  // 64 FMAs per trip whatever the ILP, so every variant pays the same loop overhead.
#pragma unroll(64 / kIlp)
  for (int k = 0; k < kIlpTotalFmas / kIlp; ++k) {
#pragma unroll
    for (int j = 0; j < kIlp; ++j) c[j] = IlpStep(c[j]);
  }
  float sum = c[0];
#pragma unroll
  for (int j = 1; j < kIlp; ++j) sum = __fadd_rn(sum, c[j]);
  out[t] = sum;
}

template <int kIlp>
void Launch(const float* d_in, float* d_out, unsigned grid, unsigned block, cudaStream_t stream) {
  IlpKernelT<kIlp><<<grid, block, 0, stream>>>(d_in, d_out);
}

}  // namespace

bool IlpSupported(int ilp) { return ilp == 1 || ilp == 2 || ilp == 4 || ilp == 8; }

const void* IlpKernel(int ilp) {
  switch (ilp) {
    case 1:
      return reinterpret_cast<const void*>(&IlpKernelT<1>);
    case 2:
      return reinterpret_cast<const void*>(&IlpKernelT<2>);
    case 4:
      return reinterpret_cast<const void*>(&IlpKernelT<4>);
    case 8:
      return reinterpret_cast<const void*>(&IlpKernelT<8>);
    default:
      return nullptr;
  }
}

Status LaunchIlpChains(int ilp, const float* d_in, float* d_out, unsigned grid, unsigned block,
                       cudaStream_t stream) {
  switch (ilp) {
    case 1:
      Launch<1>(d_in, d_out, grid, block, stream);
      break;
    case 2:
      Launch<2>(d_in, d_out, grid, block, stream);
      break;
    case 4:
      Launch<4>(d_in, d_out, grid, block, stream);
      break;
    case 8:
      Launch<8>(d_in, d_out, grid, block, stream);
      break;
    default:
      return InvalidArgumentError("latency.ilp: no kernel for ilp " + std::to_string(ilp));
  }
  CUDA_RETURN_IF_LAUNCH_ERROR();
  return OkStatus();
}

}  // namespace warpwatch::kernels
