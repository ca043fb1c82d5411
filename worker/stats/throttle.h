// Marks throttled samples from their SM clocks and the driver's throttle reasons. CUDA-free.
#ifndef WARPWATCH_WORKER_STATS_THROTTLE_H_
#define WARPWATCH_WORKER_STATS_THROTTLE_H_

#include <cstdint>
#include <vector>

namespace warpwatch::worker {

// NVML clocks-event (throttle) reason bits that are not throttling: the GPU is idle, or the
// clocks follow the applications-clocks / display setting.
inline constexpr uint64_t kBenignThrottleReasons = 0x1 | 0x2 | 0x100;

// A sample is throttled when its clock is known (> 0) and below `clock_ratio` (0.95) of the
// highest clock seen in the point, or when a throttle reason other than the benign ones was set.
// `reasons` may be empty (unknown) or hold one entry per sample. Returns one flag per clock.
std::vector<bool> MarkThrottled(const std::vector<double>& clocks_mhz,
                                const std::vector<uint64_t>& reasons, double clock_ratio = 0.95);

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_STATS_THROTTLE_H_
