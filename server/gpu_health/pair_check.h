// File: server/gpu_health/pair_check.h
// A node run's GPU pairs compared with the node's other pairs of the same path on the same case
// (docs/gpu_health.md, "GPU interconnect"): "GPU0->GPU1 peer copies 40 % slower than the node's
// 11 other NV18 pairs" is evidence against both GPUs of the pair, found within one run, as the
// fleet view finds a GPU slower than its same-night peers. Pure.
#ifndef WARPWATCH_SERVER_GPU_HEALTH_PAIR_CHECK_H_
#define WARPWATCH_SERVER_GPU_HEALTH_PAIR_CHECK_H_

#include <cstdint>
#include <string>
#include <vector>

namespace warpwatch::server::gpu_health {

// One OK point of a pair case (a node-scoped family with `src` and `dst` axes) of a node run.
struct PairPoint {
  std::string case_key;  // canonical
  std::string group;     // the case without its pair: family, variant and the other axes
  int src = 0;           // CUDA ordinals of the run's process
  int dst = 0;
  int64_t bytes = 0;  // its `bytes` axis (0: none)
  double median_seconds = 0;
  std::string path;  // how the pair is joined (GpuLink.path, "" unknown)
};

// A pair slower than its node's other pairs of the same path on one case.
struct SlowPair {
  std::string case_key;
  int src = 0;
  int dst = 0;
  std::string path;
  double change = 0;  // its median / the others' median - 1
  double z = 0;       // against the others' spread
  int peers = 0;      // the other pairs compared with
};

struct PairPolicy {
  // Bandwidth cases only: 4-byte copies (latency) differ threefold between pairs of one path on
  // one node (7.6-21.6 us on four H200s, docs/results/multigpu_interconnect/summary.txt).
  int64_t min_bytes = int64_t{1} << 20;
  // Slower by this much than the median of the others ... The pairs of one node at 64 MiB differ
  // by up to 6 % by direction (GPU0 as source 379 GB/s against 358 for the others, same run).
  double min_change = 0.10;
  // ... and this many robust sigmas of their spread (1.4826 x MAD, floored at min_sigma of the
  // median): the fleet view's z.
  double min_z = 3.5;
  double min_sigma = 0.01;
  // Other pairs of the same path needed (a 4-GPU node has 12 ordered pairs, a 2-GPU node 2).
  int min_peers = 3;
};

// The slow pairs among `points` (one run's), each compared with the other pairs of its group and
// path; a pair of unknown path is compared with nothing.
std::vector<SlowPair> FindSlowPairs(const std::vector<PairPoint>& points, const PairPolicy& policy);

// "GPU0->GPU1 28.6 % slower than the node's 11 other NV18 pairs on <case>".
std::string DescribeSlowPair(const SlowPair& pair);

// A node's collective slower than its own history, as GPU health evidence of each GPU of the node
// (GpuHistory RunSummary::slower_than_history): "the node's 4 GPUs' <case> 23.4 % slower than its
// own history (finding 17)". A collective has no pair: it names no link.
std::string DescribeSlowCollective(const std::string& case_key, double change, int node_gpus,
                                   int64_t finding_id);

// A pair case slower than its own history, as GPU health evidence of the pair's two GPUs:
// "GPU1->GPU2 15.0 % slower than its own history on <case> (finding 17)".
std::string DescribePairSlowerThanHistory(const std::string& case_key, int src, int dst,
                                          double change, int64_t finding_id);

}  // namespace warpwatch::server::gpu_health

#endif  // WARPWATCH_SERVER_GPU_HEALTH_PAIR_CHECK_H_
