// Pooling clock stamps into per-sample SM clocks.
#include "worker/stats/clock_estimate.h"

#include <algorithm>

namespace warpwatch::worker {

std::vector<double> EstimateSampleClocksMhz(const std::vector<double>& cycles,
                                            const std::vector<double>& ns, double min_window_ns) {
  const size_t n = std::min(cycles.size(), ns.size());
  std::vector<double> mhz(std::max(cycles.size(), ns.size()), 0.0);
  // Pools as lists of member indices, built left to right.
  std::vector<std::vector<size_t>> pools;
  std::vector<size_t> open;
  double open_ns = 0;
  for (size_t i = 0; i < n; ++i) {
    if (!(ns[i] > 0) || !(cycles[i] > 0)) continue;
    open.push_back(i);
    open_ns += ns[i];
    if (open_ns >= min_window_ns) {
      pools.push_back(std::move(open));
      open.clear();
      open_ns = 0;
    }
  }
  if (!open.empty()) {
    if (pools.empty()) {
      pools.push_back(std::move(open));
    } else {
      pools.back().insert(pools.back().end(), open.begin(), open.end());
    }
  }
  for (const std::vector<size_t>& pool : pools) {
    double c = 0;
    double t = 0;
    for (size_t i : pool) {
      c += cycles[i];
      t += ns[i];
    }
    const double clock = t > 0 ? c / t * 1e3 : 0.0;
    for (size_t i : pool) mhz[i] = clock;
  }
  return mhz;
}

}  // namespace warpwatch::worker
