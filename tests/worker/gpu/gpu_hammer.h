// A load on every SM from another stream of the same process (tensor-core MMA loops, the most
// power-hungry work a GPU does), for tests that need a busy, power-limited GPU.
#ifndef WARPWATCH_TESTS_WORKER_GPU_GPU_HAMMER_H_
#define WARPWATCH_TESTS_WORKER_GPU_GPU_HAMMER_H_

#include <atomic>
#include <memory>
#include <thread>

#include "common/status/status.h"

namespace warpwatch::worker {

class GpuHammer {
 public:
  // Starts launching on device 0 from a thread of its own until Stop() or `seconds` have passed.
  static StatusOr<std::unique_ptr<GpuHammer>> Start(double seconds);
  ~GpuHammer();
  // Stops launching and waits for the last launch; returns the first CUDA error, if any.
  Status Stop();

 private:
  GpuHammer() = default;
  std::atomic<bool> stop_{false};
  std::thread thread_;
  Status error_;  // written by thread_ before it ends, read after join
};

}  // namespace warpwatch::worker

#endif  // WARPWATCH_TESTS_WORKER_GPU_GPU_HAMMER_H_
