// Splitting activity records into the samples of a point.
#include "worker/profiler/kernel_trace.h"

#include <algorithm>
#include <map>
#include <set>

namespace warpwatch::worker {

KernelTrace SplitSamples(std::vector<KernelRecord> records, const std::string& marker) {
  std::sort(records.begin(), records.end(),
            [](const KernelRecord& a, const KernelRecord& b) { return a.start_ns < b.start_ns; });
  KernelTrace trace;
  std::map<std::string, size_t> index;  // symbol -> position in trace.kernels
  bool inside = false;
  bool first_sample = true;
  std::map<std::string, double> sample_time;  // this sample's time per symbol
  uint64_t first_start = 0;
  uint64_t last_end = 0;
  for (const KernelRecord& r : records) {
    if (r.symbol == marker) {
      if (inside) {
        // Closing marker: book the sample.
        if (!sample_time.empty()) {
          for (const auto& [symbol, seconds] : sample_time) {
            trace.kernels[index[symbol]].seconds.push_back(seconds);
          }
          trace.span_seconds.push_back(static_cast<double>(last_end - first_start) * 1e-9);
          first_sample = false;
        }
        sample_time.clear();
      }
      inside = !inside;
      first_start = 0;
      last_end = 0;
      continue;
    }
    if (!inside || r.end_ns < r.start_ns) continue;
    auto [it, added] = index.emplace(r.symbol, trace.kernels.size());
    if (added) trace.kernels.push_back(TracedKernel{r.symbol, {}, 0});
    if (first_sample) {
      ++trace.kernels[it->second].launches_per_sample;
      trace.launch_symbols.push_back(r.symbol);
    }
    sample_time[r.symbol] += static_cast<double>(r.end_ns - r.start_ns) * 1e-9;
    if (first_start == 0 || r.start_ns < first_start) first_start = r.start_ns;
    last_end = std::max(last_end, r.end_ns);
  }
  return trace;
}

std::vector<KernelRecord> WithoutKernels(std::vector<KernelRecord> records,
                                         const std::vector<std::string>& foreign) {
  if (foreign.empty()) return records;
  const std::set<std::string> drop(foreign.begin(), foreign.end());
  records.erase(std::remove_if(records.begin(), records.end(),
                               [&](const KernelRecord& r) { return drop.count(r.symbol) > 0; }),
                records.end());
  return records;
}

}  // namespace warpwatch::worker
