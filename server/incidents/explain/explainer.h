// File: server/incidents/explain/explainer.h
// One finding's explanation from what the store holds about it: its regression row, its new run
// and measurement, and its baseline runs and their measurements of the same series.
#ifndef WARPWATCH_SERVER_INCIDENTS_EXPLAIN_EXPLAINER_H_
#define WARPWATCH_SERVER_INCIDENTS_EXPLAIN_EXPLAINER_H_

#include <optional>
#include <vector>

#include "warpwatch/v1/explanation.pb.h"
#include "warpwatch/v1/measurement.pb.h"
#include "warpwatch/v1/result.pb.h"

namespace warpwatch::server::incidents {

// A measurement of the finding's case taken with the counter pass, in a run apart from the timed
// ones (a counter job's or the confirmation's).
struct CounterRun {
  int64_t run_id = 0;
  v1::Measurement measurement;  // counters non-empty
};

struct FindingEvidence {
  v1::Regression finding;
  v1::Run run;                                 // finding.run_id's run
  std::optional<v1::Measurement> measurement;  // its point of the series; gone = nullopt
  std::vector<v1::Run> baseline_runs;          // those of finding.baseline_run_ids still stored
  std::vector<v1::Measurement> baseline_measurements;  // their points of the series
  // Counters from runs apart, used only on a side whose timed measurements have none:
  // the GPU's latest counter measurement of the case at the baseline level (before the finding's
  // run, after the series' previous level change), and the confirmation run's measurement (or a
  // later counter run's) at the new level.
  std::optional<CounterRun> baseline_counters;
  std::optional<CounterRun> new_counters;
};

// Pure: the environment, attribute, time, clock and counter parts, then the ranked causes
// (cause_ranking.h). computed_at is left for the caller. Without the new measurement the
// attribute, kernel-time and counter parts are empty and say why. Counters: each side's timed
// measurements when they carry counters, else that side's CounterRun (named in
// counter_baseline_run_ids / counter_run_id); a side with neither is said in counters_note.
v1::Explanation Explain(const FindingEvidence& evidence);

}  // namespace warpwatch::server::incidents

#endif  // WARPWATCH_SERVER_INCIDENTS_EXPLAIN_EXPLAINER_H_
