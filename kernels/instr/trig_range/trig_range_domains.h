// instr.trig_range's argument ranges (guide 5.4.1 "Sine and cosine"): sinf takes a fast range
// reduction below |x| = 105615 and a slow one (Payne-Hanek, with local memory) above.
#ifndef WARPWATCH_KERNELS_INSTR_TRIG_RANGE_TRIG_RANGE_DOMAINS_H_
#define WARPWATCH_KERNELS_INSTR_TRIG_RANGE_TRIG_RANGE_DOMAINS_H_

#include "kernels/instr/detail/function_sweep.h"

namespace warpwatch::kernels {

// On an H100 the large arguments took 8.6x the time of the small ones (2.06 ms vs 0.24 ms for 2^28
// calls), executed 6x the instructions and read 1.0e8 sectors of local memory (none for small).
inline constexpr float kTrigFastPathLimit = 105615.0f;

// small: x in [-49152, 49152 + 256): inside the fast path. large: x in [1572864, 2621440 + 256):
// all above the limit. Step 1 (exact at both magnitudes), so each call gets a new argument.
inline instr_detail::SweepDomain TrigRangeDomain(bool large) {
  instr_detail::SweepDomain d;
  d.step = 1.0f;
  if (large) {
    d.scale = 1048576.0f;
    d.offset = 2097152.0f;
  } else {
    d.scale = 98304.0f;
    d.offset = 0;
  }
  return d;
}

// sinf's documented bound is 2 ulp over the whole range: 4e-6 absolute is far above it.
inline constexpr double kTrigMaxCallError = 4e-6;

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_INSTR_TRIG_RANGE_TRIG_RANGE_DOMAINS_H_
