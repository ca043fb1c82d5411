// Pair and size planning of the interconnect families, and nccl-tests' bandwidth arithmetic.
#include "kernels/interconnect/interconnect_plan.h"

#include <algorithm>

namespace warpwatch::kernels {

std::vector<std::pair<int, int>> OrderedPairs(int device_count) {
  std::vector<std::pair<int, int>> pairs;
  for (int src = 0; src < device_count; ++src) {
    for (int dst = 0; dst < device_count; ++dst) {
      if (src != dst) pairs.emplace_back(src, dst);
    }
  }
  return pairs;
}

Status CheckMultiGpu(int device_count) {
  if (device_count >= 2) return OkStatus();
  return FailedPreconditionError(std::string(kNotApplicable) + "this node has " +
                                 std::to_string(device_count) +
                                 (device_count == 1 ? " GPU" : " GPUs") +
                                 "; the family needs two or more");
}

Status CheckPair(int src, int dst, int device_count) {
  if (src < 0 || dst < 0) {
    return InvalidArgumentError("GPU ordinals must be >= 0 (src " + std::to_string(src) +
                                ", dst " + std::to_string(dst) + ")");
  }
  RETURN_IF_ERROR(CheckMultiGpu(device_count));
  if (src == dst) {
    return FailedPreconditionError(std::string(kNotApplicable) + "src and dst are both GPU " +
                                   std::to_string(src) + " (a pair needs two GPUs)");
  }
  const int beyond = std::max(src, dst);
  if (beyond >= device_count) {
    return FailedPreconditionError(std::string(kNotApplicable) + "GPU " + std::to_string(beyond) +
                                   " is beyond this node's " + std::to_string(device_count) +
                                   " GPUs");
  }
  return OkStatus();
}

const char* CollectiveName(Collective op) {
  switch (op) {
    case Collective::kAllReduce:
      return "all_reduce";
    case Collective::kAllGather:
      return "all_gather";
    case Collective::kReduceScatter:
      return "reduce_scatter";
  }
  return "?";
}

double BusBandwidthFactor(Collective op, int ranks) {
  if (ranks < 1) return 0;
  const double n = ranks;
  switch (op) {
    case Collective::kAllReduce:
      return 2.0 * (n - 1) / n;
    case Collective::kAllGather:
    case Collective::kReduceScatter:
      return (n - 1) / n;
  }
  return 0;
}

StatusOr<CollectivePlan> PlanCollective(Collective op, int64_t bytes, int ranks,
                                        int element_bytes) {
  if (ranks < 1 || element_bytes < 1 || bytes < 1) {
    return InvalidArgumentError("PlanCollective: bytes " + std::to_string(bytes) + ", ranks " +
                                std::to_string(ranks) + " and element_bytes " +
                                std::to_string(element_bytes) + " must all be >= 1");
  }
  CollectivePlan p;
  p.bus_factor = BusBandwidthFactor(op, ranks);
  switch (op) {
    case Collective::kAllReduce:
      p.count = std::max<int64_t>(1, bytes / element_bytes);
      p.send_elements = p.count;
      p.recv_elements = p.count;
      p.bytes = static_cast<double>(p.count) * element_bytes;
      break;
    case Collective::kAllGather:
      p.count = std::max<int64_t>(1, bytes / (int64_t{element_bytes} * ranks));
      p.send_elements = p.count;
      p.recv_elements = p.count * ranks;
      p.bytes = static_cast<double>(p.recv_elements) * element_bytes;
      break;
    case Collective::kReduceScatter:
      p.count = std::max<int64_t>(1, bytes / (int64_t{element_bytes} * ranks));
      p.send_elements = p.count * ranks;
      p.recv_elements = p.count;
      p.bytes = static_cast<double>(p.send_elements) * element_bytes;
      break;
  }
  return p;
}

}  // namespace warpwatch::kernels
