// Timestamp kernel and the interval it measures.
#include <algorithm>
#include <vector>

#include "kernels/core/cuda_check.h"
#include "worker/engine/clock_stamps.h"

namespace warpwatch::worker {
namespace {

constexpr int kFields = 3;  // sequence, globaltimer, clock64

// One thread per block, one block per SM on an idle GPU (not guaranteed: an SM that got no block
// simply has no stamp this time).
__global__ void ClockStampKernel(unsigned long long* slots, int sm_count, int slot,
                                 unsigned long long sequence) {
  unsigned int sm;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
  if (static_cast<int>(sm) >= sm_count) return;
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  const long long c = clock64();
  unsigned long long* s = slots + (static_cast<size_t>(sm) * 2 + slot) * kFields;
  s[0] = sequence;
  s[1] = t;
  s[2] = static_cast<unsigned long long>(c);
}

}  // namespace

const void* ClockStamps::Kernel() { return reinterpret_cast<const void*>(&ClockStampKernel); }

StatusOr<std::unique_ptr<ClockStamps>> ClockStamps::Create(int sm_count) {
  if (sm_count <= 0) return InvalidArgumentError("ClockStamps: sm_count must be positive");
  auto c = std::unique_ptr<ClockStamps>(new ClockStamps());
  c->sm_count_ = sm_count;
  c->bytes_ = static_cast<size_t>(sm_count) * 2 * kFields * sizeof(unsigned long long);
  CUDA_RETURN_IF_ERROR(cudaMalloc(reinterpret_cast<void**>(&c->d_slots_), c->bytes_));
  CUDA_RETURN_IF_ERROR(cudaMemset(c->d_slots_, 0, c->bytes_));
  void* host = nullptr;
  CUDA_RETURN_IF_ERROR(cudaMallocHost(&host, c->bytes_));
  c->h_slots_ = static_cast<unsigned long long*>(host);
  std::fill_n(c->h_slots_, c->bytes_ / sizeof(unsigned long long), 0ull);
  // One stamp pair now: the kernel's first launch, which under lazy module loading may wait for
  // the device, must not happen behind the blocking kernel.
  RETURN_IF_ERROR(c->Begin(nullptr));
  RETURN_IF_ERROR(c->End(nullptr));
  CUDA_RETURN_IF_ERROR(cudaDeviceSynchronize());
  return StatusOr<std::unique_ptr<ClockStamps>>(std::move(c));
}

ClockStamps::~ClockStamps() {
  if (d_slots_ != nullptr) CUDA_CHECK_NOEXCEPT(cudaFree(d_slots_));
  if (h_slots_ != nullptr) CUDA_CHECK_NOEXCEPT(cudaFreeHost(h_slots_));
}

Status ClockStamps::Stamp(cudaStream_t stream, int slot) {
  ClockStampKernel<<<sm_count_, 1, 0, stream>>>(d_slots_, sm_count_, slot, sequence_);
  CUDA_RETURN_IF_LAUNCH_ERROR();
  return OkStatus();
}

Status ClockStamps::Begin(cudaStream_t stream) {
  ++sequence_;
  return Stamp(stream, 0);
}

Status ClockStamps::End(cudaStream_t stream) {
  RETURN_IF_ERROR(Stamp(stream, 1));
  CUDA_RETURN_IF_ERROR(cudaMemcpyAsync(h_slots_, d_slots_, bytes_, cudaMemcpyDeviceToHost, stream));
  return OkStatus();
}

ClockInterval ClockStamps::Read() const {
  std::vector<std::pair<double, double>> per_sm;  // (ns, cycles)
  for (int sm = 0; sm < sm_count_; ++sm) {
    const unsigned long long* a = h_slots_ + (static_cast<size_t>(sm) * 2) * kFields;
    const unsigned long long* b = a + kFields;
    if (a[0] != sequence_ || b[0] != sequence_) continue;
    if (b[1] <= a[1] || b[2] <= a[2]) continue;
    per_sm.emplace_back(static_cast<double>(b[1] - a[1]), static_cast<double>(b[2] - a[2]));
  }
  ClockInterval interval;
  if (per_sm.empty()) return interval;
  // The SM with the median clock: one SM's counter hiccup does not move the estimate.
  std::sort(per_sm.begin(), per_sm.end(),
            [](const auto& x, const auto& y) { return x.second / x.first < y.second / y.first; });
  const auto& mid = per_sm[per_sm.size() / 2];
  interval.ns = mid.first;
  interval.cycles = mid.second;
  return interval;
}

}  // namespace warpwatch::worker
