// File: common/report/report_main.cc
// warpwatch-report: RunResult JSON (from `warpwatch-worker run --out`) -> Markdown on stdout.
//   warpwatch-report --in results.json [--title T] [--source TEXT] [--out report.md]
//                    [--charts-dir DIR [--charts-link PREFIX]]   (SVG charts, embedded in the
//                    report)
#include <google/protobuf/util/json_util.h>

#include <CLI/CLI.hpp>
#include <fstream>
#include <iostream>
#include <sstream>

#include "common/report/family_charts.h"
#include "common/report/markdown_report.h"

int main(int argc, char** argv) {
  CLI::App app{"Renders a warpwatch run (JSON) as Markdown tables, one per family."};
  std::string in, out_path;
  warpwatch::report::ReportOptions options;
  app.add_option("--in", in, "RunResult JSON written by warpwatch-worker run --out")->required();
  app.add_option("--title", options.title, "report title");
  app.add_option("--source", options.source, "a line saying how the input was produced");
  app.add_option("--out", out_path, "write here instead of stdout");
  std::vector<std::string> bench_files;
  app.add_option("--bench", bench_files, "bench JSON (bench_* --json) for the targets section");
  std::string notes_path;
  app.add_option("--notes", notes_path,
                 "Markdown whose '## <family>' sections are printed under each family's verdict");
  std::string charts_dir, charts_link;
  app.add_option("--charts-dir", charts_dir,
                 "write one SVG chart per family (and reduce's steps, occupancy against block "
                 "size) into this directory and embed them in the report");
  app.add_option("--charts-link", charts_link,
                 "how the report links to --charts-dir (default: the directory as given); e.g. "
                 "charts when the report is written next to it");
  CLI11_PARSE(app, argc, argv);
  if (!notes_path.empty()) {
    std::ifstream notes(notes_path);
    if (!notes) {
      std::cerr << "warpwatch-report: cannot open " << notes_path << "\n";
      return 2;
    }
    std::stringstream notes_text;
    notes_text << notes.rdbuf();
    options.notes = warpwatch::report::ParseNotes(notes_text.str());
  }

  std::ifstream file(in);
  if (!file) {
    std::cerr << "warpwatch-report: cannot open " << in << "\n";
    return 2;
  }
  std::stringstream text;
  text << file.rdbuf();
  warpwatch::v1::RunResult run;
  google::protobuf::util::JsonParseOptions parse;
  parse.ignore_unknown_fields = true;
  auto status = google::protobuf::util::JsonStringToMessage(text.str(), &run, parse);
  if (!status.ok()) {
    std::cerr << "warpwatch-report: " << in << " is not a RunResult: " << status.ToString() << "\n";
    return 2;
  }
  for (const std::string& path : bench_files) {
    std::ifstream bench(path);
    std::stringstream bench_text;
    bench_text << bench.rdbuf();
    auto ratios = warpwatch::report::ParseBenchJson(bench_text.str());
    if (!bench || !ratios.ok()) {
      std::cerr << "warpwatch-report: " << path << ": "
                << (bench ? ratios.status().message() : "cannot open") << "\n";
      return 2;
    }
    options.targets.insert(options.targets.end(), ratios->begin(), ratios->end());
  }
  if (!charts_dir.empty()) {
    const std::string link = charts_link.empty() ? charts_dir : charts_link;
    for (const auto& named : warpwatch::report::FamilyCharts(run)) {
      const std::string file = charts_dir + "/" + named.stem + ".svg";
      std::ofstream svg(file);
      svg << warpwatch::report::RenderBarChart(named.chart);
      if (!svg) {
        std::cerr << "warpwatch-report: cannot write " << file << "\n";
        return 2;
      }
      options.charts[named.family].emplace_back(named.chart.title,
                                                link + "/" + named.stem + ".svg");
    }
  }
  std::string markdown = warpwatch::report::RenderMarkdown(run, options);
  if (out_path.empty()) {
    std::cout << markdown;
  } else {
    std::ofstream(out_path) << markdown;
  }
  return 0;
}
