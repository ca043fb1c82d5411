// File: server/incidents/explain/counter_diff.h
// Counter (CUPTI metric) differences between a finding's baseline measurements and its new one,
// only where both sides collected counters: a missing side is said, never invented.
#ifndef WARPWATCH_SERVER_INCIDENTS_EXPLAIN_COUNTER_DIFF_H_
#define WARPWATCH_SERVER_INCIDENTS_EXPLAIN_COUNTER_DIFF_H_

#include <string>
#include <vector>

#include "warpwatch/v1/explanation.pb.h"
#include "warpwatch/v1/measurement.pb.h"

namespace warpwatch::server::incidents {

// Counters that moved by at least this much (relative) are listed.
inline constexpr double kCounterChangeListed = 0.02;

struct CounterDiff {
  std::vector<v1::CounterDifference> counters;  // largest |change| first
  std::string note;                             // set whenever `counters` is empty: why
};

// Counters present in `now` and in at least one baseline measurement (their mean over the
// baseline measurements that have them), moved by kCounterChangeListed or more. Without counters
// on the baseline side the note says so ("the baseline runs have no counters ..."), likewise for
// the new run; with both and nothing moved, "counters equal within 2 %".
CounterDiff DiffCounters(const std::vector<v1::Measurement>& baseline, const v1::Measurement& now);

}  // namespace warpwatch::server::incidents

#endif  // WARPWATCH_SERVER_INCIDENTS_EXPLAIN_COUNTER_DIFF_H_
