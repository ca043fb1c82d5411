// File: server/incidents/explain/time_split.h
// Where a finding's time went: the kernels' own GPU time or around them (event time vs kernel
// time), and the work or the clock (time vs cycles, throttling).
#ifndef WARPWATCH_SERVER_INCIDENTS_EXPLAIN_TIME_SPLIT_H_
#define WARPWATCH_SERVER_INCIDENTS_EXPLAIN_TIME_SPLIT_H_

#include <optional>
#include <vector>

#include "warpwatch/v1/explanation.pb.h"
#include "warpwatch/v1/measurement.pb.h"

namespace warpwatch::server::incidents {

// The finding's own figures (its regression row), as the detector judged them.
struct FindingTiming {
  double change = 0;                    // of the event median
  std::optional<double> cycles_change;  // absent when a clock is unknown
  double baseline_sm_clock_mhz = 0;
  double new_sm_clock_mhz = 0;
};

// Event time vs kernel time. The kernels' median (Measurement.kernel_median_seconds) of the
// baseline is the median over the baseline measurements that have one. where = "kernel" when the
// kernels' own time moved at least half as much as the event time (same sign), "around_kernel"
// when it did not, "unknown" (with a note) when either side has no kernel time.
v1::TimeSplit SplitTime(const FindingTiming& finding, const std::vector<v1::Measurement>& baseline,
                        const v1::Measurement& now);

// Time vs cycles. verdict = "throttled" when the new run's throttled fraction is above 10 % and 5
// points above the baseline's mean; else "unknown" without cycles; "clock" when the cycles moved
// less than half of the time (or the other way); "cycles" when they moved with it.
v1::ClockSplit SplitClocks(const FindingTiming& finding,
                           const std::vector<v1::Measurement>& baseline,
                           const v1::Measurement& now);

}  // namespace warpwatch::server::incidents

#endif  // WARPWATCH_SERVER_INCIDENTS_EXPLAIN_TIME_SPLIT_H_
