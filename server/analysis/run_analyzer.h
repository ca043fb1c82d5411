// File: server/analysis/run_analyzer.h
// Everything the detector does with one finished run, inside the transaction that claimed it
// (AnalysisStore::AnalyzeNextRun): per measurement the decision against the series' baseline (its
// newest baseline pin when it has one, else its rolling window) and the fleet view, the regression
// rows, one confirmation job for the run's suspects, and the change points of every series the run
// touched. A confirmation run is only used to resolve the suspects it was queued for. docs/regressions.md ("Detection on every finished run") states the policy.
#ifndef WARPWATCH_SERVER_ANALYSIS_RUN_ANALYZER_H_
#define WARPWATCH_SERVER_ANALYSIS_RUN_ANALYZER_H_

#include <string>
#include <vector>

#include "common/status/status.h"
#include "server/analysis/analysis_config.h"
#include "server/analysis/analysis_store.h"
#include "server/analysis/night_peers.h"

namespace warpwatch::server::analysis {

// What one analysis wrote (for logs and tests).
// One regression row AnalyzeRun inserted, by the labels metrics count it under.
struct InsertedFinding {
  std::string kind;   // kKind*
  std::string state;  // its first state: kStateSuspected, kStateOpen or kStateDismissed
  std::string family;
  std::string gpu_model;
};

struct RunAnalysisSummary {
  int cases = 0;     // measurements of the run
  int findings = 0;  // regression rows inserted (regressions, improvements, outliers)
  std::vector<InsertedFinding> inserted;  // those rows (findings of them)
  int64_t confirmation_job_id = 0;
  int64_t counter_job_id = 0;  // counter job queued for the run's cases (counter_plan.h); 0: none
  int change_point_series = 0;  // series whose change points were replaced
  int resolved = 0;             // suspects resolved (confirmation runs)
  int attached = 0;             // cases that joined a standing finding at its level
  int closed = 0;               // standing findings whose level returned (FIXED by the detector)
  int demoted = 0;              // flags the run-wide false-alarm control turned SAME
  RunCoverage coverage;         // what was judged, and why the rest was not
};

// Analyses tx.run(): a confirmation run resolves its suspects; a counter job's run (counter_plan.h)
// only marks its cases' standing findings for a new explanation, never judged (its changes are
// the judged run's, already reported); any other run is judged. Safe to run again on a rolled-back transaction (it only reads and writes
// through `tx`; `night` only caches finished runs' points and notes outliers as pending, which the
// caller commits or discards with the transaction). `night`: the caller's cache of the night's
// peers, kept between analyses on one thread; nullptr reads the night afresh. Errors: the store's.
StatusOr<RunAnalysisSummary> AnalyzeRun(AnalysisTx& tx, const AnalysisConfig& config,
                                        NightPeerCache* night = nullptr);

}  // namespace warpwatch::server::analysis

#endif  // WARPWATCH_SERVER_ANALYSIS_RUN_ANALYZER_H_
