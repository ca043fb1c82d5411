// Throttled-sample marking.
#include "worker/stats/throttle.h"

#include <algorithm>

namespace warpwatch::worker {

std::vector<bool> MarkThrottled(const std::vector<double>& clocks_mhz,
                                const std::vector<uint64_t>& reasons, double max_clock_mhz,
                                double clock_ratio) {
  double reference = max_clock_mhz;
  if (!(reference > 0)) {
    reference = 0;
    for (double c : clocks_mhz) reference = std::max(reference, c);
  }
  std::vector<bool> throttled(clocks_mhz.size(), false);
  for (size_t i = 0; i < clocks_mhz.size(); ++i) {
    bool slow = clocks_mhz[i] > 0 && clocks_mhz[i] < clock_ratio * reference;
    bool reason = i < reasons.size() && (reasons[i] & ~kBenignThrottleReasons) != 0;
    throttled[i] = slow || reason;
  }
  return throttled;
}

}  // namespace warpwatch::worker
