// File: server/store/detail/counter_evidence.h
// The counter runs a finding is explained with when its timed runs have no counters (nightly runs
// skip the counter pass): issue 26 item 3.
#ifndef WARPWATCH_SERVER_STORE_DETAIL_COUNTER_EVIDENCE_H_
#define WARPWATCH_SERVER_STORE_DETAIL_COUNTER_EVIDENCE_H_

#include <pqxx/transaction>

#include "common/status/status.h"
#include "server/incidents/explain/explainer.h"

namespace warpwatch::server::detail {

// Fills e->baseline_counters and e->new_counters for finding `regression_id` (its case on its
// GPU, from runs of the finding run's history: run.history_owner), read in `tx`; either stays
// empty when no such measurement is stored:
//  - baseline: the latest measurement of the case on the GPU with counters, from a run started
//    before the finding's run and after the series' previous level change on that GPU (the run of
//    the latest earlier REGRESSION/IMPROVEMENT finding that was not NOISE, or the time it was
//    closed as FIXED), so counters of another level are never the baseline's;
//  - new: the finding's confirmation run's measurement of the case when it has counters (a
//    confirmation job collects them), else the earliest measurement with counters of the case on
//    the GPU from a run started at or after the finding's run.
Status SelectCounterRuns(pqxx::work& tx, int64_t regression_id, incidents::FindingEvidence* e);

}  // namespace warpwatch::server::detail

#endif  // WARPWATCH_SERVER_STORE_DETAIL_COUNTER_EVIDENCE_H_
