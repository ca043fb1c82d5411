// What the counter pass measures per kernel launch: CUPTI's name of the launch's range and the
// metric values. CUDA-free, so the attribution of launches to kernels is tested on CPUs.
#ifndef WARPWATCH_WORKER_PROFILER_LAUNCH_COUNTERS_H_
#define WARPWATCH_WORKER_PROFILER_LAUNCH_COUNTERS_H_

#include <map>
#include <string>

namespace warpwatch::worker {

// Metric name -> value of one kernel launch (one auto range), as ncu reports it: a pct metric in
// percent.
using KernelCounters = std::map<std::string, double>;

struct LaunchCounters {
  // The range's name as CUPTI gives it for an auto range: the launched kernel's symbol or name.
  // Empty when this CUPTI cannot say.
  std::string range_name;
  KernelCounters values;
};

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_PROFILER_LAUNCH_COUNTERS_H_
