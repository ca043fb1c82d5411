// Printing and JSON output of the bench/ ratios (a measured case against its reference).
#ifndef WARPWATCH_BENCH_DETAIL_RATIO_REPORT_H_
#define WARPWATCH_BENCH_DETAIL_RATIO_REPORT_H_

#include <cuda_runtime_api.h>

#include <string>
#include <vector>

#include "bench/detail/case_timer.h"
#include "common/status/status.h"

namespace warpwatch::bench {

struct Ratio {
  std::string name;       // what is compared, e.g. "w16 / memcpy"
  CaseTiming measured;
  CaseTiming reference;
  double ratio = 0;       // measured bandwidth / reference bandwidth
  double target = 0;      // the target for the ratio
  bool met() const { return ratio >= target; }
};

// One line per ratio on stdout: "<name>: ratio 0.953 (target 0.90, met) <GB/s> vs <GB/s> ...".
void PrintRatio(const Ratio& r);

// {"bench", "device", "ratios": [{name, ratio, target, met, measured{...}, reference{...}}]}.
Status WriteRatiosJson(const std::string& path, const std::string& bench,
                       const cudaDeviceProp& prop, const std::vector<Ratio>& ratios);

// True when a CUDA device is usable; otherwise prints "skipped: no CUDA device".
bool CudaDeviceOrSkip();

}  // namespace warpwatch::bench

#endif  // WARPWATCH_BENCH_DETAIL_RATIO_REPORT_H_
