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

struct FindingEvidence {
  v1::Regression finding;
  v1::Run run;                                 // finding.run_id's run
  std::optional<v1::Measurement> measurement;  // its point of the series; gone = nullopt
  std::vector<v1::Run> baseline_runs;          // those of finding.baseline_run_ids still stored
  std::vector<v1::Measurement> baseline_measurements;  // their points of the series
};

// Pure: the environment, attribute, time, clock and counter parts, then the ranked causes
// (cause_ranking.h). computed_at is left for the caller. Without the new measurement the
// attribute, kernel-time and counter parts are empty and say why.
v1::Explanation Explain(const FindingEvidence& evidence);

}  // namespace warpwatch::server::incidents

#endif  // WARPWATCH_SERVER_INCIDENTS_EXPLAIN_EXPLAINER_H_
