// Leaves the L2 cache cold and clean before a cold sample, outside the timed region.
//
// How: a kernel reads a buffer of twice the L2 size (and writes nothing but one word that only a
// checksum nobody expects would trigger). Every line the case left in L2, dirty ones included, is
// evicted by the read pass, and their write-back to DRAM happens inside the flush kernel; what
// remains in L2 are clean lines of the flush buffer, which the timed kernel never touches.
//
// Why not a memset (what nvbench and this engine did before): a memset of an L2-sized buffer
// evicts the case's lines but leaves L2 full of its own dirty lines, and their write-back lands in
// the next, timed, kernel. Measured on an H100 (CUDA events, float4 copy of 2^24 floats): 51.7 us
// after a memset flush, 44.3-44.5 us after a read pass (alone or after the memset), 43.6 us in
// Nsight Compute (--cache-control all); bench/bench_l2_flush repeats the comparison against the
// kernel's own CUPTI duration, docs/results/h100_l2_flush.md holds its result.
// Twice the L2 size because lines are placed by a hash over the L2 slices and H100's two L2
// partitions may hold a line in both: one L2-sized pass does not evict every line.
#ifndef WARPWATCH_WORKER_ENGINE_L2_FLUSHER_H_
#define WARPWATCH_WORKER_ENGINE_L2_FLUSHER_H_

#include <cuda_runtime_api.h>

#include <cstddef>
#include <memory>

#include "common/status/status.h"

namespace warpwatch::worker {

// How a flush evicts L2. kReadPass is the engine's; the others exist so bench/bench_l2_flush can
// show why.
enum class FlushMethod {
  kReadPass,        // read 2x L2 (clean L2 afterwards)
  kMemset,          // cudaMemsetAsync over 2x L2 (L2 left dirty)
  kMemsetThenRead,  // both
};

// Owns the flush buffer (device memory of the current device). Not thread-safe.
class L2Flusher {
 public:
  // Allocates 2 * max(l2_bytes, 1 MiB) bytes, fills them once, and turns persisting L2 off
  // (limit 0, persisting lines reset) so no line survives a flush.
  static StatusOr<std::unique_ptr<L2Flusher>> Create(int l2_bytes,
                                                     FlushMethod method = FlushMethod::kReadPass);
  ~L2Flusher();
  L2Flusher(const L2Flusher&) = delete;
  L2Flusher& operator=(const L2Flusher&) = delete;

  // Enqueues the flush on `stream`; checks the launch.
  Status Flush(cudaStream_t stream);
  size_t bytes() const { return bytes_; }
  // The read-pass kernel, so traces can tell it from the case's kernels.
  static const void* ReadPassKernel();

 private:
  L2Flusher() = default;
  Status ReadPass(cudaStream_t stream);

  FlushMethod method_ = FlushMethod::kReadPass;
  void* d_buffer_ = nullptr;
  unsigned int* d_sink_ = nullptr;
  size_t bytes_ = 0;
  int fill_ = 0;
  int blocks_ = 0;
};

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_ENGINE_L2_FLUSHER_H_
