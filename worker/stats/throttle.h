// Marks throttled samples from the SM clock they ran at and the driver's throttle reasons seen
// while they ran. CUDA-free.
#ifndef WARPWATCH_WORKER_STATS_THROTTLE_H_
#define WARPWATCH_WORKER_STATS_THROTTLE_H_

#include <cstdint>
#include <vector>

namespace warpwatch::worker {

// NVML clocks-event reason bits that are not throttling: the GPU is idle (it is not while the
// reasons are read during a sample, but a short kernel may have ended), or the clocks follow the
// applications-clocks / display setting.
inline constexpr uint64_t kBenignThrottleReasons = 0x1 | 0x2 | 0x100;

// A sample that ran below this share of the device's maximum SM clock is throttled. 0.97: on a
// quiet H100 every sample of the nightly suite ran at 1964-1980 MHz (>= 0.99 of its 1980 MHz
// maximum), while the same GPU sharing its SMs with a tensor-core load ran a clock-bound case at
// 1872 MHz (0.945); a clock-bound kernel's time moves by as much as its clock does, and the
// detector looks for changes of 2 % and more, so a 3 % clock drop must not pass as the code's.
inline constexpr double kThrottleClockRatio = 0.97;

// One flag per clock: the clock is known (> 0) and below clock_ratio * max_clock_mhz, or a
// throttle reason other than the benign ones was set (`reasons` may be empty or hold one entry
// per sample). With max_clock_mhz unknown (<= 0) the highest clock of the samples stands in, so
// only a drop within the point is seen.
std::vector<bool> MarkThrottled(const std::vector<double>& clocks_mhz,
                                const std::vector<uint64_t>& reasons, double max_clock_mhz,
                                double clock_ratio = kThrottleClockRatio);

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_STATS_THROTTLE_H_
