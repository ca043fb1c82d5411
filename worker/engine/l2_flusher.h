// Evicts the L2 cache before a cold sample: cudaMemsetAsync over a buffer at least as large as L2.
#ifndef WARPWATCH_WORKER_ENGINE_L2_FLUSHER_H_
#define WARPWATCH_WORKER_ENGINE_L2_FLUSHER_H_

#include <cuda_runtime_api.h>

#include <memory>

#include "common/status/status.h"

namespace warpwatch::worker {

// Owns the flush buffer (device memory of the current device). Not thread-safe.
class L2Flusher {
 public:
  // Allocates max(l2_bytes, 1 MiB) bytes and turns persisting L2 off (limit 0, persisting lines
  // reset) so no line survives a flush.
  static StatusOr<std::unique_ptr<L2Flusher>> Create(int l2_bytes);
  ~L2Flusher();
  L2Flusher(const L2Flusher&) = delete;
  L2Flusher& operator=(const L2Flusher&) = delete;

  // Enqueues the flush on `stream`. Alternates the fill byte so no write is elided.
  Status Flush(cudaStream_t stream);
  size_t bytes() const { return bytes_; }

 private:
  L2Flusher() = default;
  void* d_buffer_ = nullptr;
  size_t bytes_ = 0;
  int fill_ = 0;
};

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_ENGINE_L2_FLUSHER_H_
