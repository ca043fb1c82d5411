// Files the counter pass's launches under the kernels they ran, so a Run() that launches A, B, A
// keeps A's counters under A. CUDA-free.
#ifndef WARPWATCH_WORKER_ENGINE_LAUNCH_ATTRIBUTION_H_
#define WARPWATCH_WORKER_ENGINE_LAUNCH_ATTRIBUTION_H_

#include <string>
#include <vector>

#include "warpwatch/v1/measurement.pb.h"
#include "worker/profiler/launch_counters.h"

namespace warpwatch::worker {

// `launches`: the counter pass's ranges, one per launch of one Run(), in launch order.
// `traced_launches`: the symbols of one traced Run()'s launches in launch order (the duration
// pass's; may be empty), used when a range's name names no listed kernel and both passes saw the
// same number of launches.
//
// CUPTI 13.0 names auto ranges by their index ("0", "1", ...: seen on the H100, driver 580), so
// the traced launch order is what names launches; a range name is still tried first, in case a
// CUPTI names ranges after their kernels. Each launch is matched to an entry of m->kernels() by
// its range name (the symbol, the demangled signature or the short name), else by the traced
// launch at its position (a kernel the duration pass did not list is appended), else the first
// launch to kernel 0 (the first kernel Run() launches, by the Case contract); any other launch
// stays unattributed (kernel -1) and m->counters_note says how many. Sets m->launches() (one per
// launch), each kernel's counters to its first launch's, launches per Run() of kernels the
// duration pass did not count, m->counters() to the first launch's and the achieved occupancy
// (when m has occupancy) from the first launch of kernel 0, the kernel whose occupancy is
// reported. Replaces earlier launches and counters.
void AttributeLaunchCounters(const std::vector<LaunchCounters>& launches,
                             const std::vector<std::string>& traced_launches, v1::Measurement* m);

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_ENGINE_LAUNCH_ATTRIBUTION_H_
