// CUDA-free planning of the node-scoped interconnect families: which ordered GPU pairs a node has,
// whether a point's pair applies to it, how a collective's size becomes NCCL element counts, and
// nccl-tests' algorithm and bus bandwidth arithmetic (nccl-tests doc/PERFORMANCE.md).
#ifndef WARPWATCH_KERNELS_INTERCONNECT_INTERCONNECT_PLAN_H_
#define WARPWATCH_KERNELS_INTERCONNECT_INTERCONNECT_PLAN_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "common/status/status.h"

namespace warpwatch::kernels {

// Every message that makes a node-scoped point "not applicable" starts with this, so that the
// engine's SKIPPED record reads as such (a single-GPU node is not a failure).
inline constexpr const char* kNotApplicable = "not applicable: ";

// Every ordered pair (src, dst), src != dst, of a node with `device_count` GPUs, src-major:
// (0,1), (0,2), ..., (1,0), (1,2), ... ; n*(n-1) pairs; empty for fewer than two GPUs.
std::vector<std::pair<int, int>> OrderedPairs(int device_count);

// OK when `src` and `dst` name two different GPUs of a node with `device_count` GPUs; otherwise
// FAILED_PRECONDITION starting with kNotApplicable that says why (one GPU, same GPU, beyond the
// node). Negative ordinals are INVALID_ARGUMENT (the catalog forbids them).
Status CheckPair(int src, int dst, int device_count);

// OK when the node has at least two GPUs; else FAILED_PRECONDITION starting with kNotApplicable.
Status CheckMultiGpu(int device_count);

enum class Collective { kAllReduce, kAllGather, kReduceScatter };

// "all_reduce", "all_gather", "reduce_scatter".
const char* CollectiveName(Collective op);

// One collective point's buffers, as nccl-tests sizes them for a requested `bytes`:
//   all_reduce:     count = bytes / element_bytes elements in and out on every rank;
//   all_gather:     count = bytes / (element_bytes * ranks) elements sent per rank, count * ranks
//                   received;
//   reduce_scatter: count * ranks elements sent per rank, count received.
// `count` is at least one element (nccl-tests would run a size below one element per rank as an
// empty operation; an empty collective measures nothing), so `bytes` (what the algorithm
// bandwidth divides) may exceed the requested size at the smallest sizes: it is the actual
// all_reduce count * element_bytes, or count * ranks * element_bytes for the other two.
struct CollectivePlan {
  int64_t count = 0;          // elements per rank as NCCL's count argument takes them
  int64_t send_elements = 0;  // per rank
  int64_t recv_elements = 0;  // per rank
  double bytes = 0;           // nccl-tests' size S: algbw = S / time
  double bus_factor = 0;      // busbw = algbw * bus_factor
};

// INVALID_ARGUMENT for ranks < 1, element_bytes < 1 or bytes < 1.
StatusOr<CollectivePlan> PlanCollective(Collective op, int64_t bytes, int ranks,
                                        int element_bytes);

// nccl-tests' bus bandwidth factor for `ranks` ranks: all_reduce 2(n-1)/n, all_gather and
// reduce_scatter (n-1)/n (0 for one rank: nothing crosses a link).
double BusBandwidthFactor(Collective op, int ranks);

}  // namespace warpwatch::kernels

#endif  // WARPWATCH_KERNELS_INTERCONNECT_INTERCONNECT_PLAN_H_
