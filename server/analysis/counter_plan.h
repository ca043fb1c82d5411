// File: server/analysis/counter_plan.h
// Counters for the baseline side of explanations (issue 26 item 3). Nightly runs skip the counter
// pass for speed, so once per series and level on a GPU (its first judged run, and again after
// each level change) the analysis queues a counter job: the run's cases that have no counters at
// their current level, re-measured on the same GPU with the counter pass. A later finding's
// explanation diffs those counters against its confirmation run's (confirmation_plan.h).
#ifndef WARPWATCH_SERVER_ANALYSIS_COUNTER_PLAN_H_
#define WARPWATCH_SERVER_ANALYSIS_COUNTER_PLAN_H_

#include <set>
#include <string>
#include <vector>

#include "server/analysis/analysis_store.h"
#include "server/analysis/run_analyzer.h"
#include "warpwatch/v1/job.pb.h"

namespace warpwatch::server::analysis {

// Label put on counter jobs: the id of the run whose cases they collect counters for.
inline constexpr const char* kCountersForRunLabel = "warpwatch.counters_for_run";

// Whether a run of job `spec` may ask for a counter job: it is not itself one, nor a confirmation
// (which collects counters already), and its settings skip the counter pass.
bool WantsCounterJob(const v1::JobSpec& spec);

// Of `cases`, those that measured (point ok) and whose canonical is not in `with_counters` (the
// cases that already have counters at their current level on the GPU), in order.
std::vector<RunCase> CasesWithoutCounters(const std::vector<RunCase>& cases,
                                          const std::set<std::string>& with_counters);

// The lowest job priority (JobSpec.priority's range).
inline constexpr int kMinCounterJobPriority = -100;

// RestrictedSpec (confirmation_plan.h) of `original` to `cases` on `device_uuid`, with the counter
// pass on, kCountersForRunLabel = `run_id`, kConfirmsRunLabel removed, and one priority step
// below `original` (at least kMinCounterJobPriority): background work that never goes ahead of
// the nightly jobs it serves or their confirmations. Precondition: `cases` non-empty.
v1::JobSpec CounterJobSpec(const v1::JobSpec& original, const std::vector<RunCase>& cases,
                           const std::string& device_uuid, int64_t run_id);

// The claimed run's counter job (`tx`): its measured cases without counters at their level on
// the GPU, but for `suspects` (their confirmation collects them), when the run's job wants one
// (WantsCounterJob). Returns the job's id; 0 when none is queued (no job, nothing lacking, one
// already waiting, or a catalog that no longer plans them).
StatusOr<int64_t> QueueCounterJob(AnalysisTx& tx, const std::vector<RunCase>& cases,
                                  const std::vector<RunCase>& suspects);

// When the claimed run was measured with the counter pass (its series carry "counters=on"), marks
// the standing findings of its measured cases for a new explanation
// (AnalysisTx::ReexplainWithCounters); otherwise does nothing.
Status ReexplainIfCountersMeasured(AnalysisTx& tx, const std::vector<RunCase>& cases);

// The analysis of a counter job's run (ClaimedRun::counters_for_run_id set): evidence, not a
// candidate. It re-measured cases of a run that was judged already, so judging it would report
// that run's changes a second time (in the counters=on series, under a run-id label that differs
// every night); its counters go to the explanations of its cases' standing findings
// (ReexplainIfCountersMeasured) and nothing else is written.
StatusOr<RunAnalysisSummary> TakeCounterRun(AnalysisTx& tx, const std::vector<RunCase>& cases);

}  // namespace warpwatch::server::analysis

#endif  // WARPWATCH_SERVER_ANALYSIS_COUNTER_PLAN_H_
