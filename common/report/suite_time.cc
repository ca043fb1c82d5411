// File: common/report/suite_time.cc
#include "common/report/suite_time.h"

#include <google/protobuf/util/time_util.h>

#include <map>
#include <sstream>
#include <vector>

#include "common/catalog/catalog.h"
#include "common/report/format.h"

namespace warpwatch::report {
namespace {

struct FamilyTime {
  int points = 0;
  double total = 0, setup = 0, sampling = 0, durations = 0, counters = 0;

  void Add(const v1::PointWallTime& w) {
    ++points;
    total += w.total_seconds();
    setup += w.setup_seconds();
    sampling += w.sampling_seconds();
    durations += w.duration_pass_seconds();
    counters += w.counter_pass_seconds();
  }
  void Add(const FamilyTime& f) {
    points += f.points;
    total += f.total;
    setup += f.setup;
    sampling += f.sampling;
    durations += f.durations;
    counters += f.counters;
  }
};

void Row(const std::string& name, const FamilyTime& f, std::ostringstream& out) {
  out << "| " << name << " | " << f.points << " | " << FormatFixed(f.total, 1) << " | "
      << FormatFixed(f.setup, 1) << " | " << FormatFixed(f.sampling, 1) << " | "
      << FormatFixed(f.durations, 1) << " | " << FormatFixed(f.counters, 1) << " |\n";
}

}  // namespace

std::string RenderSuiteTime(const v1::RunResult& run) {
  std::map<std::string, FamilyTime> by_family;
  bool any = false;
  for (const auto& m : run.measurements()) {
    if (!m.has_wall_time() || m.wall_time().total_seconds() <= 0) continue;
    by_family[m.case_().family()].Add(m.wall_time());
    any = true;
  }
  if (!any) return "";
  std::vector<std::string> order;
  for (const auto& info : catalog::Families()) {
    if (by_family.count(info.name)) order.push_back(info.name);
  }
  for (const auto& [family, time] : by_family) {
    if (catalog::FindFamily(family) == nullptr) order.push_back(family);
  }
  FamilyTime all;
  std::ostringstream out;
  out << "## Where the time went\n\n";
  if (run.has_started_at() && run.has_finished_at()) {
    const double span = google::protobuf::util::TimeUtil::DurationToNanoseconds(
                            run.finished_at() - run.started_at()) *
                        1e-9;
    out << "The run took " << FormatFixed(span, 1) << " s from start to finish. ";
  }
  out << "Engine wall time per family, in seconds: setup is allocation, input fill, the first run "
         "and its CPU verification and the warm-up; sampling is the timed samples with their L2 "
         "flushes; the two passes are CUPTI's (kernel durations, and counters when asked for).\n\n"
         "| family | points | total | setup | sampling | duration pass | counter pass |\n"
         "|---|---:|---:|---:|---:|---:|---:|\n";
  for (const auto& family : order) {
    Row(family, by_family[family], out);
    all.Add(by_family[family]);
  }
  Row("**all**", all, out);
  out << "\n";
  return out.str();
}

}  // namespace warpwatch::report
