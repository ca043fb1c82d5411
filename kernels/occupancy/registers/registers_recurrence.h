// occupancy.registers: the constants of the per-thread recurrence, shared by the kernel and its CPU
// reference so both evaluate exactly the same sequence of fused multiply-adds.
//
// Per element with input byte b: x = (b - 128) / 512, so |x| < 1/4.
//   init:   s[k] = fma(x, InitScale(k), InitOffset(k))                       k = 0..kStateWords-1
//   rounds: p = x; kRounds times, for k = 0..kStateWords-1:
//             p = fma(FlipCarry(k) ? -p : p, s[k], FlipInput(k) ? -x : x);  s[k] = p
//   output: p
// Every s[k] is read in round r+1 after being written in round r, so all kStateWords values are
// live across the whole rounds loop: that is the register demand. The rounds are one dependent
// chain (each fma needs the previous p), so a warp has no instruction-level parallelism to hide
// the FMA latency and needs other warps (occupancy) to keep the pipes busy.
// Bounded: |s| <= 1/2 is kept by every step (|p * s| <= 1/4, |x| < 1/4), so no overflow, no NaN.
#ifndef WARPWATCH_KERNELS_OCCUPANCY_REGISTERS_REGISTERS_RECURRENCE_H_
#define WARPWATCH_KERNELS_OCCUPANCY_REGISTERS_REGISTERS_RECURRENCE_H_

#include <cstdint>

#include "kernels/core/seeded_values.h"  // WW_HOST_DEVICE

namespace warpwatch::kernels {

// Live per-thread state values. With CUDA 13's ptxas for sm_90: unbounded wants 72 registers
// (one 512-thread block per SM), __launch_bounds__(512, 2) fits 64 with a few bytes of spill,
// __launch_bounds__(1024, 2) spills about 200 bytes per thread at 32 registers.
inline constexpr int kStateWords = 57;
// Dependent rounds over the state per element: kStateWords * (kRounds + 1) = 171 FMAs per 5 bytes
// moved, so DRAM bandwidth is not the limit (about 13 % of an H100's), latency is: each element's
// load and its FMA chain are exposed to the warp that runs them, and only more resident warps hide
// them. Measured on an H100 (explored 2..12 rounds): with more rounds the FMA pipe (register-bank
// bound at about half an instruction per cycle per scheduler) is already full at 16 warps per SM
// and occupancy stops mattering; at 2 rounds two 512-thread blocks per SM beat one by ~1.3x.
inline constexpr int kRounds = 2;

WW_HOST_DEVICE constexpr float RecurrenceInput(uint8_t b) {
  return static_cast<float>(static_cast<int>(b) - 128) * (1.0f / 512.0f);  // exact
}
// In [-3/8, 3/8] and [-28/128, 28/128]: after init |s| <= 1/4 * 3/8 + 28/128 < 1/2.
WW_HOST_DEVICE constexpr float InitScale(int k) { return (k & 1) ? 0.375f : -0.3125f; }
WW_HOST_DEVICE constexpr float InitOffset(int k) {
  return 0.0078125f * static_cast<float>(k - kStateWords / 2);
}
// Sign patterns (free on the GPU: FFMA operand negation) so neighbouring steps differ.
WW_HOST_DEVICE constexpr bool FlipCarry(int k) { return (k & 1) != 0; }
WW_HOST_DEVICE constexpr bool FlipInput(int k) { return k % 3 == 0; }

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_OCCUPANCY_REGISTERS_REGISTERS_RECURRENCE_H_
