// The blocking kernel and its host side.
#include <atomic>

#include "kernels/core/cuda_check.h"
#include "worker/engine/launch_blocker.h"

namespace warpwatch::worker {
namespace {

__device__ __forceinline__ unsigned long long NowNs() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void LaunchBlockerKernel(volatile int* flags, unsigned long long timeout_ns) {
  const unsigned long long t0 = NowNs();
  while (flags[0] == 0) {
    if (NowNs() - t0 > timeout_ns) {
      flags[1] = 1;
      break;
    }
  }
}

}  // namespace

const void* LaunchBlocker::Kernel() { return reinterpret_cast<const void*>(&LaunchBlockerKernel); }

StatusOr<std::unique_ptr<LaunchBlocker>> LaunchBlocker::Create(unsigned long long timeout_ns) {
  auto b = std::unique_ptr<LaunchBlocker>(new LaunchBlocker());
  b->timeout_ns_ = timeout_ns;
  void* host = nullptr;
  CUDA_RETURN_IF_ERROR(cudaHostAlloc(&host, 2 * sizeof(int), cudaHostAllocMapped));
  b->h_flags_ = static_cast<volatile int*>(host);
  b->h_flags_[0] = 0;
  b->h_flags_[1] = 0;
  void* device = nullptr;
  CUDA_RETURN_IF_ERROR(cudaHostGetDevicePointer(&device, host, 0));
  b->d_flags_ = static_cast<int*>(device);
  // Launched once already released, so the kernel's module is loaded before any sample (a first
  // launch under lazy loading may wait for the device).
  b->h_flags_[0] = 1;
  LaunchBlockerKernel<<<1, 1>>>(b->d_flags_, timeout_ns);
  CUDA_RETURN_IF_LAUNCH_ERROR();
  CUDA_RETURN_IF_ERROR(cudaDeviceSynchronize());
  b->h_flags_[0] = 0;
  return StatusOr<std::unique_ptr<LaunchBlocker>>(std::move(b));
}

LaunchBlocker::~LaunchBlocker() {
  if (h_flags_ != nullptr) CUDA_CHECK_NOEXCEPT(cudaFreeHost(const_cast<int*>(h_flags_)));
}

Status LaunchBlocker::Block(cudaStream_t stream) {
  h_flags_[0] = 0;
  h_flags_[1] = 0;
  std::atomic_thread_fence(std::memory_order_seq_cst);
  LaunchBlockerKernel<<<1, 1, 0, stream>>>(d_flags_, timeout_ns_);
  CUDA_RETURN_IF_LAUNCH_ERROR();
  return OkStatus();
}

void LaunchBlocker::Release() {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  h_flags_[0] = 1;
  std::atomic_thread_fence(std::memory_order_seq_cst);
}

bool LaunchBlocker::TimedOut() const { return h_flags_[1] != 0; }

}  // namespace warpwatch::worker
