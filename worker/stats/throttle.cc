// Throttled-sample marking.
#include "worker/stats/throttle.h"

#include <algorithm>

namespace warpwatch::worker {
namespace {

enum class Held { kFree, kBySetting, kSlowedDown };

Held HeldBy(const std::vector<uint64_t>& reasons, size_t i) {
  if (i >= reasons.size()) return Held::kFree;
  if (IsSlowdown(reasons[i])) return Held::kSlowedDown;
  if ((reasons[i] & kSettingClockReasons) != 0) return Held::kBySetting;
  return Held::kFree;
}

}  // namespace

std::vector<bool> MarkThrottled(const std::vector<double>& clocks_mhz,
                                const std::vector<uint64_t>& reasons, double setting_mhz,
                                double clock_ratio) {
  double fastest_free = 0;
  double fastest_held = 0;
  for (size_t i = 0; i < clocks_mhz.size(); ++i) {
    const Held held = HeldBy(reasons, i);
    if (held == Held::kFree) fastest_free = std::max(fastest_free, clocks_mhz[i]);
    if (held == Held::kBySetting) fastest_held = std::max(fastest_held, clocks_mhz[i]);
  }
  const double free_reference = setting_mhz > 0 ? setting_mhz : fastest_free;
  std::vector<bool> throttled(clocks_mhz.size(), false);
  for (size_t i = 0; i < clocks_mhz.size(); ++i) {
    const double clock = clocks_mhz[i];
    switch (HeldBy(reasons, i)) {
      case Held::kSlowedDown:
        throttled[i] = true;
        break;
      case Held::kBySetting:
        throttled[i] = clock > 0 && clock < clock_ratio * fastest_held;
        break;
      case Held::kFree:
        throttled[i] = clock > 0 && clock < clock_ratio * free_reference;
        break;
    }
  }
  return throttled;
}

}  // namespace warpwatch::worker
