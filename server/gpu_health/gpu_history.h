// File: server/gpu_health/gpu_history.h
// What the verdict of one GPU is computed from, as the store reads it: its recent runs, each with
// its night (peers), its slower-than-peers cases and its clocks, and what people said about it.
#ifndef WARPWATCH_SERVER_GPU_HEALTH_GPU_HISTORY_H_
#define WARPWATCH_SERVER_GPU_HEALTH_GPU_HISTORY_H_

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "warpwatch/v1/gpu_health.pb.h"

namespace warpwatch::server::gpu_health {

using TimePoint = std::chrono::system_clock::time_point;

// A case of the run slower than the same case on its night's peers (a fleet OUTLIER row).
struct CaseOutlier {
  std::string case_key;
  std::string family;
  double change = 0;  // > 0: slower
  double z = 0;
};

// A pair of the node's GPUs, this GPU one of them, that the run saw with fewer NVLinks (or, with
// none, a worse PCIe path) than the pair's reference: the best the pair was seen with by any run
// of either GPU since the newer of their REPAIRED marks (link_check.h).
struct LinkLoss {
  int gpu_index = 0;   // this GPU's CUDA ordinal in the run's process
  int peer_index = 0;  // the other GPU's
  std::string peer_uuid;
  std::string path;  // nvidia-smi topo -m's word now ("NV17", "SYS")
  int nvlinks = 0;
  std::string reference_path;  // and what the pair was seen with ("NV18")
  int reference_nvlinks = 0;
};

// One SUCCEEDED, analysed, non-confirmation run of the GPU.
struct RunSummary {
  int64_t run_id = 0;
  TimePoint started_at;
  int night_devices = 0;          // GPUs of its model in its night, itself included
  double sm_clock_mhz = 0;        // median over its OK cases; 0 = unknown
  double night_sm_clock_mhz = 0;  // median of its night's runs' clocks
  double throttled_share = 0;
  double night_throttled_share = 0;  // median over its night's runs
  // What the fleet view compared with same-night peers: the run's cases it judged (the case's
  // noise model known, enough good devices, this run's point good) and their families. The
  // fleet view judges a night's early runs during its later runs' analyses, so these grow until
  // the night is complete. Outliers are only ever found among them: a run with none compared was
  // not seen clean, it was not looked at.
  int fleet_judged_cases = 0;
  std::vector<std::string> fleet_judged_families;
  std::vector<CaseOutlier> outliers;  // slower only
  // The pairs of the node's GPUs with this GPU in them that the run's environment recorded
  // (RunEnvironment.gpu_links: 0 for a one-GPU process or without NVML), and those of them lost.
  int links_checked = 0;
  std::vector<LinkLoss> link_losses;
  // Pairs with this GPU in them that a node run (a run of node-scoped families only: peer copies,
  // peer reads) found slower than the node's other pairs of the same path (pair_check.h), from
  // the node runs that followed this run within a day, before the GPU's next run. case_key is
  // DescribeSlowPair's text, family the pair case's.
  std::vector<CaseOutlier> slow_pairs;
  // The node runs' cases slower than their own history: each node run that followed this run
  // within a day, before the GPU's next run, and that stands at the level of an OPEN or
  // ACKNOWLEDGED REGRESSION finding of a case of at least 1 MiB: a collective (interconnect.nccl)
  // counts on every GPU of the node (the GPUs its gpu_links name), a pair case on the pair's two
  // GPUs. change and z are that run's against the finding's baseline; case_key describes it
  // (DescribeSlowCollective, DescribePairSlowerThanHistory).
  std::vector<CaseOutlier> slower_than_history;
};

struct Mark {
  v1::GpuHealthAction action = v1::GPU_HEALTH_ACTION_UNSPECIFIED;
  std::string actor;
  std::string note;
  TimePoint at;
};

struct GpuHistory {
  std::string device_uuid;
  std::string gpu_model;
  std::string hostname;
  int gpu_index = 0;
  std::vector<RunSummary> runs;  // oldest first, within the policy's window
  std::vector<Mark> marks;       // oldest first
};

}  // namespace warpwatch::server::gpu_health

#endif  // WARPWATCH_SERVER_GPU_HEALTH_GPU_HISTORY_H_
