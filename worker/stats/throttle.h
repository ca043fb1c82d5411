// Marks throttled samples: a sample is throttled when the GPU ran it below the clock it is set to
// run at (the operator's locked or application clocks, else the maximum boost clock), or while the
// driver reported a slowdown. CUDA-free.
#ifndef WARPWATCH_WORKER_STATS_THROTTLE_H_
#define WARPWATCH_WORKER_STATS_THROTTLE_H_

#include <cstdint>
#include <vector>

namespace warpwatch::worker {

// NVML clocks-event reason bits (nvml.h nvmlClocksEventReason*), in three groups.
// Not a slowdown: the GPU is idle (it is not while the reasons are read during a sample, but a
// short kernel may have ended).
inline constexpr uint64_t kIdleClockReason = 0x1;
// The clock follows a setting: 0x2 ApplicationsClocksSetting, which NVML also reports for locked
// clocks (its deprecated alias is UserDefinedClocks: nvidia-smi -lgc / nvmlDeviceSetGpuLockedClocks
// and -ac), and 0x100 DisplayClockSetting. A GPU held at its setting runs where it was told to.
inline constexpr uint64_t kSettingClockReasons = 0x2 | 0x100;
// Every other bit pulls the clock below its setting: 0x4 SwPowerCap, 0x8 HwSlowdown, 0x10
// SyncBoost, 0x20 SwThermalSlowdown, 0x40 HwThermalSlowdown, 0x80 HwPowerBrakeSlowdown, and bits
// newer drivers may add.
inline constexpr uint64_t kBenignThrottleReasons = kIdleClockReason | kSettingClockReasons;

// True when `reasons` holds a bit that pulls the clock below its setting.
inline bool IsSlowdown(uint64_t reasons) { return (reasons & ~kBenignThrottleReasons) != 0; }

// A sample that ran below this share of its reference clock is throttled. 0.97: on a quiet H100
// every sample of the nightly suite ran at 1964-1980 MHz (>= 0.99 of its 1980 MHz maximum), while
// the same GPU sharing its SMs with a tensor-core load ran a clock-bound case at 1872 MHz (0.945);
// a clock-bound kernel's time moves by as much as its clock does, and the detector looks for
// changes of 2 % and more, so a 3 % clock drop must not pass as the code's.
inline constexpr double kThrottleClockRatio = 0.97;

// One flag per clock (clocks in MHz, 0 = unknown: never judged by clock). `reasons` may be empty
// or hold one entry per sample; `setting_mhz` is the clock the GPU is set to run at (the
// application clocks when the operator set them, else the maximum boost clock; <= 0 = unknown).
// A sample is throttled when
//  - a slowdown reason was set (IsSlowdown), or
//  - a setting reason was set (locked or application clocks hold the clock) and its clock is below
//    clock_ratio * the fastest clock of the samples held the same way: the held clock is the
//    setting, which NVML does not report for locked clocks, so a GPU locked at 1410 MHz is not
//    throttled at 1410 and is at 1300; or
//  - no reason was set and its clock is below clock_ratio * setting_mhz (with setting_mhz unknown,
//    the fastest clock of those samples stands in, so only a drop within the point is seen).
std::vector<bool> MarkThrottled(const std::vector<double>& clocks_mhz,
                                const std::vector<uint64_t>& reasons, double setting_mhz,
                                double clock_ratio = kThrottleClockRatio);

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_STATS_THROTTLE_H_
