// File: server/gpu_health/pair_check.cc
#include "server/gpu_health/pair_check.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <utility>

namespace warpwatch::server::gpu_health {
namespace {

double PairMedian(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

std::string Percent(double change) {
  char percent[32];
  std::snprintf(percent, sizeof percent, "%.1f", change * 100);
  return percent;
}

}  // namespace

std::vector<SlowPair> FindSlowPairs(const std::vector<PairPoint>& points,
                                    const PairPolicy& policy) {
  std::map<std::pair<std::string, std::string>, std::vector<const PairPoint*>> groups;
  for (const PairPoint& p : points) {
    if (p.path.empty() || p.bytes < policy.min_bytes || p.median_seconds <= 0) continue;
    groups[{p.group, p.path}].push_back(&p);
  }
  std::vector<SlowPair> out;
  for (const auto& [key, members] : groups) {
    if (static_cast<int>(members.size()) < policy.min_peers + 1) continue;
    for (const PairPoint* p : members) {
      std::vector<double> others;
      for (const PairPoint* q : members) {
        if (q != p) others.push_back(q->median_seconds);
      }
      const double median = PairMedian(others);
      std::vector<double> deviations;
      for (double v : others) deviations.push_back(std::fabs(v - median));
      const double sigma = std::max(1.4826 * PairMedian(deviations), policy.min_sigma * median);
      const double change = p->median_seconds / median - 1;
      const double z = (p->median_seconds - median) / sigma;
      if (change < policy.min_change || z < policy.min_z) continue;
      out.push_back(SlowPair{p->case_key, p->src, p->dst, p->path, change, z,
                             static_cast<int>(others.size())});
    }
  }
  return out;
}

std::string DescribeSlowPair(const SlowPair& pair) {
  return "GPU" + std::to_string(pair.src) + "->GPU" + std::to_string(pair.dst) + " " +
         Percent(pair.change) + " % slower than the node's " + std::to_string(pair.peers) +
         " other " + pair.path + " pairs on " + pair.case_key;
}

std::string DescribeSlowCollective(const std::string& case_key, double change, int node_gpus,
                                   int64_t finding_id) {
  return "the node's " + std::to_string(node_gpus) + " GPUs' " + case_key + " " + Percent(change) +
         " % slower than its own history (finding " + std::to_string(finding_id) + ")";
}

std::string DescribePairSlowerThanHistory(const std::string& case_key, int src, int dst,
                                          double change, int64_t finding_id) {
  return "GPU" + std::to_string(src) + "->GPU" + std::to_string(dst) + " " + Percent(change) +
         " % slower than its own history on " + case_key + " (finding " +
         std::to_string(finding_id) + ")";
}

}  // namespace warpwatch::server::gpu_health
