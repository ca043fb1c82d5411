// File: tests/server/gpu_health/power/study_report.h
// The plain-text tables health_power prints (docs/results/health_false_alarms.txt).
#ifndef WARPWATCH_TESTS_SERVER_GPU_HEALTH_POWER_STUDY_REPORT_H_
#define WARPWATCH_TESTS_SERVER_GPU_HEALTH_POWER_STUDY_REPORT_H_

#include <string>

#include "tests/server/gpu_health/power/health_study.h"
#include "tests/server/gpu_health/power/run_pool.h"

namespace warpwatch::server::gpu_health::power {

// The pool: runs, GPUs, cases, and the spread of its residuals and offsets (kernel-only cases
// against the host-side ones).
std::string PoolText(const std::string& name, const RunPool& pool);

// One fleet size: the per-run figures, then one line per hysteresis length with the false
// drains per GPU-night (95 % bounds), per night on 1000 GPUs and per GPU-year.
std::string FalseAlarmText(const FalseAlarmFigures& figures);

// One fault: per hysteresis length, the share DEGRADED or FAILING after each number of nights.
std::string PowerText(const std::string& fault, const PowerFigures& figures,
                      const std::vector<int>& runs_to_change);

}  // namespace warpwatch::server::gpu_health::power

#endif  // WARPWATCH_TESTS_SERVER_GPU_HEALTH_POWER_STUDY_REPORT_H_
