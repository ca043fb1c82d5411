// File: server/incidents/explain/time_split.cc
#include "server/incidents/explain/time_split.h"

#include <algorithm>
#include <cmath>

namespace warpwatch::server::incidents {
namespace {

std::optional<double> Median(std::vector<double> values) {
  if (values.empty()) return std::nullopt;
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

bool SameDirection(double a, double b) { return (a > 0 && b > 0) || (a < 0 && b < 0); }

}  // namespace

v1::TimeSplit SplitTime(const FindingTiming& finding, const std::vector<v1::Measurement>& baseline,
                        const v1::Measurement& now) {
  v1::TimeSplit split;
  split.set_time_change(finding.change);
  std::vector<double> kernels, gaps;
  for (const v1::Measurement& m : baseline) {
    if (m.kernel_median_seconds() > 0) {
      kernels.push_back(m.kernel_median_seconds());
      gaps.push_back(m.event_kernel_gap());
    }
  }
  const std::optional<double> base_kernel = Median(kernels);
  if (base_kernel) {
    split.set_baseline_kernel_seconds(*base_kernel);
    split.set_baseline_event_kernel_gap(*Median(gaps));
  }
  if (now.kernel_median_seconds() > 0) {
    split.set_new_kernel_seconds(now.kernel_median_seconds());
    split.set_new_event_kernel_gap(now.event_kernel_gap());
  }
  if (!base_kernel || now.kernel_median_seconds() <= 0) {
    split.set_where("unknown");
    split.set_note(
        !base_kernel
            ? "the baseline runs have no kernel time (CUPTI activity pass)"
            : "the new run has no kernel time" +
                  (now.duration_note().empty() ? std::string() : " (" + now.duration_note() + ")"));
    return split;
  }
  const double kernel_change = now.kernel_median_seconds() / *base_kernel - 1;
  split.set_kernel_change(kernel_change);
  const bool with_time = SameDirection(kernel_change, finding.change) &&
                         std::fabs(kernel_change) >= 0.5 * std::fabs(finding.change);
  split.set_where(with_time ? "kernel" : "around_kernel");
  return split;
}

v1::ClockSplit SplitClocks(const FindingTiming& finding,
                           const std::vector<v1::Measurement>& baseline,
                           const v1::Measurement& now) {
  v1::ClockSplit split;
  split.set_time_change(finding.change);
  if (finding.cycles_change) split.set_cycles_change(*finding.cycles_change);
  split.set_baseline_sm_clock_mhz(finding.baseline_sm_clock_mhz);
  split.set_new_sm_clock_mhz(finding.new_sm_clock_mhz);
  double throttled = 0;
  for (const v1::Measurement& m : baseline) throttled += m.throttled_fraction();
  if (!baseline.empty()) throttled /= static_cast<double>(baseline.size());
  split.set_baseline_throttled_fraction(throttled);
  split.set_new_throttled_fraction(now.throttled_fraction());
  if (now.throttled_fraction() > 0.10 && now.throttled_fraction() > throttled + 0.05) {
    split.set_verdict("throttled");
  } else if (!finding.cycles_change) {
    split.set_verdict("unknown");
  } else {
    const double cycles = *finding.cycles_change;
    const bool with_time = SameDirection(cycles, finding.change) &&
                           std::fabs(cycles) >= 0.5 * std::fabs(finding.change);
    split.set_verdict(with_time ? "cycles" : "clock");
  }
  return split;
}

}  // namespace warpwatch::server::incidents
