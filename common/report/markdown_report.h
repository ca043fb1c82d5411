// File: common/report/markdown_report.h
// Turns a RunResult (what `warpwatch-worker run --out` writes) into a Markdown report: the run's
// environment, then one table per family in catalog order in which the guide's lesson is visible
// (every variant next to the family's recommended one, with bandwidth, occupancy and counters,
// the kernels' real names and CUPTI time, and a verdict on whether the lesson shows).
// A family none of whose points ran (all SKIPPED) gets one line with the reasons, not a table.
#ifndef WARPWATCH_COMMON_REPORT_MARKDOWN_REPORT_H_
#define WARPWATCH_COMMON_REPORT_MARKDOWN_REPORT_H_

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "common/report/bench_targets.h"
#include "warpwatch/v1/measurement.pb.h"

namespace warpwatch::report {

struct ReportOptions {
  std::string title = "warpwatch results";
  std::string source;          // how the input was produced; printed under the title
  std::vector<BenchRatio> targets;  // bench ratios rendered as "Performance targets"
  // Family name -> Markdown printed under its lesson verdict (what the numbers mean on this GPU,
  // written by whoever read them; see ParseNotes).
  std::map<std::string, std::string> notes;
  // Family name -> images embedded under its note, as (alt text, link) (the SVG charts
  // warpwatch-report --charts-dir writes; see family_charts.h).
  std::map<std::string, std::vector<std::pair<std::string, std::string>>> charts;
};

// Notes from a Markdown file whose "## <family>" headings open one family's note each; text
// before the first heading is ignored.
std::map<std::string, std::string> ParseNotes(const std::string& markdown);

// Pure function of its inputs; thread-safe.
std::string RenderMarkdown(const v1::RunResult& run, const ReportOptions& options);

}  // namespace warpwatch::report

#endif  // WARPWATCH_COMMON_REPORT_MARKDOWN_REPORT_H_
