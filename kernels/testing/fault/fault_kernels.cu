// The kernels of testing.fault.
#include "kernels/testing/fault/fault_kernels.h"

#include "kernels/core/cuda_check.h"

namespace warpwatch::kernels::fault {
namespace {

__global__ void CopyKernel(const float* in, float* out, int64_t n, const int*) {
  int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x;
  if (i < n) out[i] = in[i];
}

// One warp: the first 32 elements again (what the copy writes), a kernel whose achieved occupancy
// is one warp's.
__global__ void OneWarpKernel(const float* in, float* out, int64_t n, const int*) {
  int64_t i = threadIdx.x;
  if (i < n) out[i] = in[i];
}

// Address 16 is never mapped: the store faults with cudaErrorIllegalAddress.
__global__ void IllegalAddressKernel(const float* in, float*, int64_t n, const int*) {
  int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x;
  if (i < n) {
    float* bad = reinterpret_cast<float*>(static_cast<uintptr_t>(16));
    bad[i] = in[i];
  }
}

__global__ void TrapKernel(const float* in, float* out, int64_t n, const int*) {
  int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x;
  if (i == 0) __trap();
  if (i < n) out[i] = in[i];
}

__global__ void HangKernel(const float* in, float* out, int64_t n, const int* flag) {
  const volatile int* f = flag;
  while (*f == 0) {
  }
  int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x;
  if (i < n) out[i] = in[i];
}

using FaultKernel = void (*)(const float*, float*, int64_t, const int*);

FaultKernel KernelFor(FaultKind kind) {
  switch (kind) {
    case FaultKind::kIllegalAddress: return IllegalAddressKernel;
    case FaultKind::kTrap: return TrapKernel;
    case FaultKind::kHang: return HangKernel;
    case FaultKind::kOk:
    case FaultKind::kPersistentError:
    case FaultKind::kLaunchOrder:
    case FaultKind::kCopyThenMemset:
      break;
  }
  return CopyKernel;
}

}  // namespace

const void* FaultKernelFunction(FaultKind kind) {
  return reinterpret_cast<const void*>(KernelFor(kind));
}

Status LaunchFault(FaultKind kind, const float* d_in, float* d_out, const int* d_flag, int64_t n,
                   unsigned grid, unsigned block, cudaStream_t stream) {
  KernelFor(kind)<<<grid, block, 0, stream>>>(d_in, d_out, n, d_flag);
  CUDA_RETURN_IF_LAUNCH_ERROR();
  if (kind != FaultKind::kLaunchOrder) return OkStatus();
  OneWarpKernel<<<1, 32, 0, stream>>>(d_in, d_out, n, d_flag);
  CUDA_RETURN_IF_LAUNCH_ERROR();
  CopyKernel<<<grid, block, 0, stream>>>(d_in, d_out, n, d_flag);
  CUDA_RETURN_IF_LAUNCH_ERROR();
  return OkStatus();
}

Status LeaveStreamCaptureOpen(cudaStream_t capture_stream, const float* d_in, float* d_out,
                              int64_t n, unsigned grid, unsigned block) {
  CUDA_RETURN_IF_ERROR(cudaStreamBeginCapture(capture_stream, cudaStreamCaptureModeGlobal));
  CopyKernel<<<grid, block, 0, capture_stream>>>(d_in, d_out, n, nullptr);
  CUDA_RETURN_IF_LAUNCH_ERROR();
  // Deliberately no cudaStreamEndCapture: the process stays in capture mode.
  CUDA_RETURN_IF_ERROR(cudaDeviceSynchronize());
  return InternalError("cudaDeviceSynchronize succeeded inside an open stream capture");
}

}  // namespace warpwatch::kernels::fault
