// File: common/report/family_charts.h
// The charts of a run, for people reading results without a Grafana: per family, every measured
// point's median time with its p10-p90 range (the recommended variant drawn bold); reduce's steps
// next to the step speedups of Harris's table (the book's sequence of reductions); theoretical
// against achieved occupancy over occupancy.block_size's block sizes.
#ifndef WARPWATCH_COMMON_REPORT_FAMILY_CHARTS_H_
#define WARPWATCH_COMMON_REPORT_FAMILY_CHARTS_H_

#include <string>
#include <vector>

#include "common/report/svg_chart.h"
#include "warpwatch/v1/measurement.pb.h"

namespace warpwatch::report {

struct NamedChart {
  std::string family;  // the family it belongs to (the Markdown report embeds it there)
  std::string stem;    // file name without ".svg": letters, digits and '_' only
  BarChart chart;
};

// Charts for every family with at least one OK point, in the run's catalog order (families the
// catalog does not know follow). Pure function of the run; thread-safe.
std::vector<NamedChart> FamilyCharts(const v1::RunResult& run);

// One reduction step of the book's sequence: from one variant to the next, and the step's speedup
// in Harris's table ("Optimizing Parallel Reduction in CUDA", G80, 2^22 ints), 0 where the
// book's table has no such step.
struct ReduceStep {
  const char* from;
  const char* to;
  const char* change;  // what the step does
  double harris_speedup;
};
const std::vector<ReduceStep>& ReduceSteps();

}  // namespace warpwatch::report

#endif  // WARPWATCH_COMMON_REPORT_FAMILY_CHARTS_H_
