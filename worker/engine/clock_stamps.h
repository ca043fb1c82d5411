// The SM clock a sample ran at: a timestamp kernel just before the start event and just after the
// stop event on the same stream (nvbench's gpu_frequency), each block recording %globaltimer (ns)
// and clock64() (SM cycles) of the SM it runs on. cycles / ns over the interval is the SM clock
// while the sample's kernels ran; no host read of an idle GPU is involved. The stamps go to device
// memory and are copied to the host after the stop event (a kernel writing host memory would make
// its completion, and so the start event, wait for the system-memory write-back).
#ifndef WARPWATCH_WORKER_ENGINE_CLOCK_STAMPS_H_
#define WARPWATCH_WORKER_ENGINE_CLOCK_STAMPS_H_

#include <cuda_runtime_api.h>

#include <cstdint>
#include <memory>

#include "common/status/status.h"

namespace warpwatch::worker {

// Cycles and nanoseconds between the two stamps of one sample (the SM with the median clock among
// those that recorded both); both 0 when no SM did.
struct ClockInterval {
  double cycles = 0;
  double ns = 0;
};

// Owns the stamp slots for every SM (device) and their host copy (pinned). Not thread-safe.
class ClockStamps {
 public:
  static StatusOr<std::unique_ptr<ClockStamps>> Create(int sm_count);
  ~ClockStamps();
  ClockStamps(const ClockStamps&) = delete;
  ClockStamps& operator=(const ClockStamps&) = delete;

  // Enqueue on `stream`: the opening stamp; the closing stamp followed by the copy to the host.
  Status Begin(cudaStream_t stream);
  Status End(cudaStream_t stream);
  // After the stream has drained: the interval of the last Begin/End pair.
  ClockInterval Read() const;
  static const void* Kernel();

 private:
  ClockStamps() = default;
  Status Stamp(cudaStream_t stream, int slot);

  int sm_count_ = 0;
  unsigned int sequence_ = 0;
  size_t bytes_ = 0;
  // Per SM: [sequence, globaltimer, clock64] for slot 0 then slot 1.
  unsigned long long* d_slots_ = nullptr;
  unsigned long long* h_slots_ = nullptr;
};

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_ENGINE_CLOCK_STAMPS_H_
