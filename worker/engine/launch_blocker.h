// Holds a stream until the host has enqueued a whole sample, so the timed region holds GPU work
// only (nvbench's blocking kernel). Without it the start event of a hot sample is recorded on an
// idle GPU and the host's launch time of the timed kernel lands in the sample: an empty kernel
// read 6.3 us that way on an H100, 3.2 us behind a blocking kernel.
#ifndef WARPWATCH_WORKER_ENGINE_LAUNCH_BLOCKER_H_
#define WARPWATCH_WORKER_ENGINE_LAUNCH_BLOCKER_H_

#include <cuda_runtime_api.h>

#include <memory>

#include "common/status/status.h"

namespace warpwatch::worker {

// Owns a host-mapped flag. Usage per sample: Block(stream); enqueue the sample; Release();
// synchronise; then TimedOut() says whether the blocker gave up waiting. Not thread-safe.
class LaunchBlocker {
 public:
  // `timeout_ns`: the blocking kernel returns by itself after this long (so a Run() that waits
  // for the host while the stream is blocked costs this much, once, and is reported).
  static StatusOr<std::unique_ptr<LaunchBlocker>> Create(unsigned long long timeout_ns);
  ~LaunchBlocker();
  LaunchBlocker(const LaunchBlocker&) = delete;
  LaunchBlocker& operator=(const LaunchBlocker&) = delete;

  // Enqueues the blocking kernel on `stream` (one thread spinning on the flag).
  Status Block(cudaStream_t stream);
  // Lets the blocking kernel finish.
  void Release();
  // After the stream has drained: whether the last Block() ended by its timeout.
  bool TimedOut() const;
  static const void* Kernel();

 private:
  LaunchBlocker() = default;
  volatile int* h_flags_ = nullptr;  // [0] release flag, [1] timed-out flag (host-mapped)
  int* d_flags_ = nullptr;
  unsigned long long timeout_ns_ = 0;
};

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_ENGINE_LAUNCH_BLOCKER_H_
