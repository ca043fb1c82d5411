// File: common/report/bench_targets.h
// The performance targets section of a results report: reads the JSON the bench/ programs write
// (`bench_* --json FILE`: {"bench", "device", "ratios": [{name, ratio, target, met, measured,
// reference}]}) and renders one table row per ratio.
#ifndef WARPWATCH_COMMON_REPORT_BENCH_TARGETS_H_
#define WARPWATCH_COMMON_REPORT_BENCH_TARGETS_H_

#include <string>
#include <vector>

#include "common/status/status.h"

namespace warpwatch::report {

struct BenchSide {
  std::string case_key;        // canonical case or a reference's name
  double gb_per_s = 0;
  double median_seconds = 0;
};

struct BenchRatio {
  std::string bench;           // program that measured it
  std::string device;          // GPU name
  std::string name;
  double ratio = 0;            // measured / reference, same run
  double target = 0;
  bool met = false;
  BenchSide measured;
  BenchSide reference;
};

// INVALID_ARGUMENT naming what is missing when `json_text` is not a bench result.
StatusOr<std::vector<BenchRatio>> ParseBenchJson(const std::string& json_text);

// "## Performance targets" with one row per ratio; empty string for no ratios.
std::string RenderTargets(const std::vector<BenchRatio>& ratios);

}  // namespace warpwatch::report

#endif  // WARPWATCH_COMMON_REPORT_BENCH_TARGETS_H_
