// Tests for common/report/suite_time.cc.
#include "common/report/suite_time.h"

#include <google/protobuf/util/time_util.h>
#include <gtest/gtest.h>

#include "common/report/markdown_report.h"

namespace warpwatch::report {
namespace {

v1::Measurement Timed(const std::string& family, double setup, double sampling, double counters) {
  v1::Measurement m;
  m.mutable_case_()->set_family(family);
  m.mutable_case_()->set_variant("v");
  m.set_status(v1::POINT_STATUS_OK);
  v1::PointWallTime* w = m.mutable_wall_time();
  w->set_setup_seconds(setup);
  w->set_sampling_seconds(sampling);
  w->set_duration_pass_seconds(0.1);
  w->set_counter_pass_seconds(counters);
  w->set_total_seconds(setup + sampling + 0.1 + counters);
  return m;
}

std::string LineStarting(const std::string& text, const std::string& prefix) {
  size_t at = text.find("\n" + prefix);
  if (at == std::string::npos) return "";
  return text.substr(at + 1, text.find('\n', at + 1) - at - 1);
}

TEST(SuiteTimeTest, SumsEachFamilysPhasesAndTheWholeRun) {
  v1::RunResult run;
  *run.add_measurements() = Timed("reduce", 0.5, 1.0, 0.4);
  *run.add_measurements() = Timed("reduce", 0.5, 2.0, 0.4);
  *run.add_measurements() = Timed("memory.coalescing", 1.5, 0.5, 0.2);
  const std::string md = RenderSuiteTime(run);
  EXPECT_EQ(LineStarting(md, "| reduce |"), "| reduce | 2 | 5.0 | 1.0 | 3.0 | 0.2 | 0.8 |") << md;
  EXPECT_EQ(LineStarting(md, "| **all** |"), "| **all** | 3 | 7.3 | 2.5 | 3.5 | 0.3 | 1.0 |")
      << md;
  // Catalog order: memory.coalescing comes before reduce.
  EXPECT_LT(md.find("| memory.coalescing |"), md.find("| reduce |")) << md;
}

TEST(SuiteTimeTest, PrintsTheRunsSpanWhenItHasOne) {
  v1::RunResult run;
  *run.add_measurements() = Timed("reduce", 0.5, 1.0, 0.4);
  *run.mutable_started_at() = google::protobuf::util::TimeUtil::SecondsToTimestamp(1000);
  *run.mutable_finished_at() = google::protobuf::util::TimeUtil::SecondsToTimestamp(1114);
  EXPECT_NE(RenderSuiteTime(run).find("The run took 114.0 s"), std::string::npos);
}

TEST(SuiteTimeTest, SaysNothingForRunsRecordedWithoutWallTimes) {
  v1::RunResult run;
  run.add_measurements()->mutable_case_()->set_family("reduce");
  EXPECT_EQ(RenderSuiteTime(run), "");
  EXPECT_EQ(RenderMarkdown(run, ReportOptions{}).find("Where the time went"), std::string::npos);
}

TEST(SuiteTimeTest, TheReportCountsSamplesTakenNotSamplesKeptInTheFile) {
  v1::RunResult run;
  v1::Measurement m = Timed("reduce", 0.5, 1.0, 0.4);
  m.add_samples_seconds(1e-3);  // a thinned file keeps one of the 2000
  m.set_sample_count(2000);
  m.mutable_stats()->set_median(1e-3);
  *run.add_measurements() = m;
  const std::string md = RenderMarkdown(run, ReportOptions{});
  EXPECT_NE(md.find("| 2000 |"), std::string::npos) << md;
  EXPECT_NE(md.find("## Where the time went"), std::string::npos) << md;
}

}  // namespace
}  // namespace warpwatch::report
