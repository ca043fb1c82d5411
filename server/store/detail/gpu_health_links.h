// File: server/store/detail/gpu_health_links.h
// The GPU interconnect half of the health read (migration 0022): each newly summarised run's
// gpu_links judged against the pairs' best links (server/gpu_health/link_check.h), and what the
// read then loads.
#ifndef WARPWATCH_SERVER_STORE_DETAIL_GPU_HEALTH_LINKS_H_
#define WARPWATCH_SERVER_STORE_DETAIL_GPU_HEALTH_LINKS_H_

#include <cstdint>
#include <map>
#include <pqxx/pqxx>
#include <string>
#include <vector>

#include "server/gpu_health/gpu_history.h"

namespace warpwatch::server::detail {

// Judges the links of `run_ids` (runs gpu_health_run summarised in this transaction), oldest
// first: every pair of a run's environment raises the pair's reference (gpu_pair_link) when it is
// better, or sets it when the pair has none; a pair with the run's GPU in it that is worse than
// its reference is a gpu_health_link_loss row; gpu_health_run.links_checked counts the run's GPU's
// pairs. A run whose environment has no gpu_links changes nothing.
void JudgeNewRunsLinks(pqxx::work& tx, const std::vector<int64_t>& run_ids);

// Forgets the references of every pair with `device_uuid` in it (a REPAIRED mark: the next run
// sets them from what it sees).
void ForgetGpuLinks(pqxx::work& tx, const std::string& device_uuid);

// links_checked and the link losses of the summarised runs since `since_micros` (of one GPU, or
// every GPU for ""), onto the runs of `by_run` (runs outside it are skipped).
void LoadLinkEvidence(pqxx::work& tx, int64_t since_micros, const std::string& device_uuid,
                      const std::map<int64_t, gpu_health::RunSummary*>& by_run);

// Compares the pairs of each node run of `run_ids` (summarised in this transaction) with the
// node's other pairs of the same path (server/gpu_health/pair_check.h, default PairPolicy) and
// records the slow ones (gpu_health_pair_slow). pg_gpu_health_pairs.cc.
void JudgeNewNodeRuns(pqxx::work& tx, const std::vector<int64_t>& run_ids);

// The slow pairs of node runs since `since_micros` that name a GPU of `gpus` (all, or
// `device_uuid`), each onto that GPU's newest own run started at most a day before the node run
// (RunSummary::slow_pairs); a pair found with no such run is left out.
void LoadSlowPairs(pqxx::work& tx, int64_t since_micros, const std::string& device_uuid,
                   std::map<std::string, gpu_health::GpuHistory>& gpus);

// The node runs since `since_micros` that stand at the level of an OPEN or ACKNOWLEDGED REGRESSION
// finding of a case of at least 1 MiB, each onto the newest own run started at most a day before
// it of the GPUs it concerns (of `gpus`: all, or `device_uuid`): a pair case's two GPUs (its
// `src` and `dst`, named by the run's gpu_links), a collective's every GPU the gpu_links name
// (RunSummary::slower_than_history; the verdict applies HealthPolicy::history_min_change).
// pg_gpu_health_pairs.cc.
void LoadNodeFindings(pqxx::work& tx, int64_t since_micros, const std::string& device_uuid,
                      std::map<std::string, gpu_health::GpuHistory>& gpus);

}  // namespace warpwatch::server::detail

#endif  // WARPWATCH_SERVER_STORE_DETAIL_GPU_HEALTH_LINKS_H_
