// Times one catalog point through the Family/Case API the way the engine does (verify first, cold
// L2 before each sample, CUDA events around Run, median of many runs), for the bench/ ratios.
#ifndef WARPWATCH_BENCH_DETAIL_CASE_TIMER_H_
#define WARPWATCH_BENCH_DETAIL_CASE_TIMER_H_

#include <cuda_runtime_api.h>

#include <string>

#include "common/catalog/plan.h"
#include "common/status/status.h"
#include "worker/engine/l2_flusher.h"

namespace warpwatch::bench {

struct CaseTiming {
  std::string key;          // the point's canonical key
  std::string kernel_name;  // the main kernel's real name ("" when the region is not ours)
  int runs = 0;
  double median_seconds = 0;
  double bytes = 0;         // Work::bytes of one Run
  double GigabytesPerSecond() const { return median_seconds > 0 ? bytes / median_seconds / 1e9 : 0; }
};

// MakeCase, Setup, one verified Run, 3 warm-up runs, then `runs` samples (Reset and the engine's
// L2 flush outside the events; `flusher` null = hot). Any failure, verification included, is
// returned with the point's key.
StatusOr<CaseTiming> TimeCase(const catalog::Point& point, const cudaDeviceProp& prop, int runs,
                              cudaStream_t stream, worker::L2Flusher* flusher);

}  // namespace warpwatch::bench

#endif  // WARPWATCH_BENCH_DETAIL_CASE_TIMER_H_
