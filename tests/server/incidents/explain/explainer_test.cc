// File: tests/server/incidents/explain/explainer_test.cc
// The explanation of a finding, whole: the ranked causes and their evidence.
#include "server/incidents/explain/explainer.h"

#include <gtest/gtest.h>

namespace warpwatch::server::incidents {
namespace {

constexpr const char* kDramPct = "dram__throughput.avg.pct_of_peak_sustained_elapsed";

v1::Run RunWith(int64_t id, const std::string& driver) {
  v1::Run r;
  r.set_id(id);
  r.mutable_environment()->set_driver_version(driver);
  r.mutable_environment()->mutable_device()->set_uuid("GPU-1");
  return r;
}

v1::Measurement Point(int registers, double theoretical, v1::OccupancyLimiter limiter) {
  v1::Measurement m;
  m.mutable_occupancy()->set_registers_per_thread(registers);
  m.mutable_occupancy()->set_theoretical(theoretical);
  m.mutable_occupancy()->set_limiter(limiter);
  m.set_kernel_median_seconds(1e-4);
  return m;
}

FindingEvidence Slowdown(double change, double cycles_change) {
  FindingEvidence e;
  e.finding.set_run_id(10);
  e.finding.set_change(change);
  e.finding.set_cycles_change(cycles_change);
  e.finding.set_baseline_sm_clock_mhz(1980);
  e.finding.set_new_sm_clock_mhz(1980);
  e.run = RunWith(10, "580");
  for (int64_t id : {1, 2, 3}) {
    e.baseline_runs.push_back(RunWith(id, "580"));
    e.baseline_measurements.push_back(Point(30, 1.0, v1::OCCUPANCY_LIMITER_WARPS));
  }
  e.measurement = Point(30, 1.0, v1::OCCUPANCY_LIMITER_WARPS);
  e.measurement->set_kernel_median_seconds(1e-4 * (1 + change));
  return e;
}

TEST(ExplainerTest, ADriverChangeWithMoreRegistersRanksTheDriverFirstWithTheRegisters) {
  FindingEvidence e = Slowdown(0.06, 0.06);
  e.run = RunWith(10, "590.12");
  e.measurement = Point(40, 0.75, v1::OCCUPANCY_LIMITER_REGISTERS);
  e.measurement->set_kernel_median_seconds(1.06e-4);
  const v1::Explanation x = Explain(e);
  ASSERT_GE(x.causes_size(), 1);
  EXPECT_EQ(x.causes(0).cause_class(), v1::CAUSE_CLASS_SOFTWARE);
  EXPECT_EQ(x.causes(0).cause(), "driver_version 580 -> 590.12");
  ASSERT_GE(x.causes(0).evidence_size(), 1);
  EXPECT_EQ(x.causes(0).evidence(0), "registers 30 -> 40 per thread");
  EXPECT_EQ(x.summary(), "driver_version 580 -> 590.12: registers 30 -> 40 per thread");
  EXPECT_EQ(x.baseline_run_ids_size(), 3);
}

TEST(ExplainerTest, AClockDropRanksTheEnvironmentFirst) {
  FindingEvidence e = Slowdown(0.24, 0.002);
  e.finding.set_new_sm_clock_mhz(1600);
  const v1::Explanation x = Explain(e);
  EXPECT_EQ(x.clocks().verdict(), "clock");
  ASSERT_GE(x.causes_size(), 1);
  EXPECT_EQ(x.causes(0).cause_class(), v1::CAUSE_CLASS_ENVIRONMENT);
  EXPECT_NE(x.summary().find("1980 -> 1600 MHz"), std::string::npos) << x.summary();
}

TEST(ExplainerTest, NothingRecordedDifferingSaysWhatWasRuledOut) {
  const v1::Explanation x = Explain(Slowdown(0.05, 0.05));
  ASSERT_EQ(x.causes_size(), 1);
  EXPECT_EQ(x.causes(0).cause_class(), v1::CAUSE_CLASS_UNKNOWN);
  ASSERT_EQ(x.ruled_out_size(), 3);
  EXPECT_EQ(x.ruled_out(0).rfind("software:", 0), 0u);
  EXPECT_EQ(x.ruled_out(1).rfind("kernel attributes:", 0), 0u);
  EXPECT_EQ(x.ruled_out(2).rfind("clocks:", 0), 0u);
}

// A peer copy slower after the node lost an NVLink between GPUs 0 and 1 (issue 29 item 3): the
// link is named first, with the software equal.
TEST(ExplainerTest, ALostNvlinkBetweenTwoGpusIsTheFirstCause) {
  FindingEvidence e = Slowdown(0.06, 0.06);
  auto link = [](v1::Run& r, const std::string& path, int nvlinks) {
    v1::GpuLink* l = r.mutable_environment()->add_gpu_links();
    l->set_src(0);
    l->set_dst(1);
    l->set_path(path);
    l->set_nvlinks(nvlinks);
  };
  for (v1::Run& r : e.baseline_runs) link(r, "NV18", 18);
  link(e.run, "NV17", 17);
  const v1::Explanation x = Explain(e);
  ASSERT_GE(x.causes_size(), 1);
  EXPECT_EQ(x.causes(0).cause_class(), v1::CAUSE_CLASS_ONE_GPU);
  EXPECT_EQ(x.causes(0).cause(),
            "the links between the node's GPUs changed: gpu_links.0-1 NV18, 18 NVLinks -> NV17, "
            "17 NVLinks");
  ASSERT_GE(x.ruled_out_size(), 1);
  EXPECT_EQ(x.ruled_out(0).rfind("software:", 0), 0u);
}

TEST(ExplainerTest, ABaselineWithoutCountersGivesANoteAndNoCounterDiff) {
  FindingEvidence e = Slowdown(0.05, 0.05);
  (*e.measurement->mutable_counters())[kDramPct] = 71;
  const v1::Explanation x = Explain(e);
  EXPECT_EQ(x.counters_size(), 0);
  EXPECT_NE(x.counters_note().find("the baseline runs have no counters"), std::string::npos);
  for (const v1::LikelyCause& c : x.causes()) {
    for (const std::string& line : c.evidence()) EXPECT_EQ(line.find(kDramPct), std::string::npos);
  }
}

// An uploaded run gets no counter job: its note says what to upload instead, for the side that
// is short (a worker's run, whose jobs the analysis queues itself, gets no such line).
TEST(ExplainerTest, AnUploadedRunsFindingWithoutCountersSaysWhatToUpload) {
  FindingEvidence e = Slowdown(0.05, 0.05);
  e.run.set_uploaded_by("alice");
  (*e.measurement->mutable_counters())[kDramPct] = 71;
  v1::Explanation x = Explain(e);
  EXPECT_EQ(x.counters_size(), 0);
  EXPECT_EQ(x.counters_note(),
            "the baseline runs have no counters (nightly runs skip the counter pass): no counter "
            "diff; an uploaded run queues no counter job: upload a run of this GPU made with "
            "`warpwatch-worker run --counters`, into the same history, started before the "
            "finding's run (after the previous level change)");
  e.measurement->clear_counters();
  x = Explain(e);  // neither side
  EXPECT_NE(x.counters_note().find("started before the finding's run and one started after it"),
            std::string::npos)
      << x.counters_note();
  for (v1::Measurement& m : e.baseline_measurements) (*m.mutable_counters())[kDramPct] = 80;
  x = Explain(e);
  EXPECT_NE(x.counters_note().find("started at or after the finding's run"), std::string::npos)
      << x.counters_note();
  e.run.clear_uploaded_by();
  x = Explain(e);
  EXPECT_EQ(x.counters_note().find("uploaded"), std::string::npos) << x.counters_note();
}

TEST(ExplainerTest, CountersOnBothSidesBecomeEvidence) {
  FindingEvidence e = Slowdown(0.06, 0.06);
  e.run = RunWith(10, "590.12");
  for (v1::Measurement& m : e.baseline_measurements) (*m.mutable_counters())[kDramPct] = 84;
  (*e.measurement->mutable_counters())[kDramPct] = 71;
  const v1::Explanation x = Explain(e);
  ASSERT_EQ(x.counters_size(), 1);
  bool found = false;
  for (const std::string& line : x.causes(0).evidence()) {
    found = found || line == std::string(kDramPct) + " 84 -> 71 (-15.5 %)";
  }
  EXPECT_TRUE(found);
}

// The evidence of a counter that was 0 at the baseline says "from 0", not a relative change.
TEST(ExplainerTest, ACounterFromZeroIsSaidSo) {
  FindingEvidence e = Slowdown(0.06, 0.06);
  for (v1::Measurement& m : e.baseline_measurements) (*m.mutable_counters())[kDramPct] = 0;
  (*e.measurement->mutable_counters())[kDramPct] = 12;
  const v1::Explanation x = Explain(e);
  bool found = false;
  for (const v1::LikelyCause& c : x.causes()) {
    for (const std::string& line : c.evidence()) {
      found = found || line == std::string(kDramPct) + " 0 -> 12 (from 0)";
    }
  }
  EXPECT_TRUE(found) << x.DebugString();
}

// Nightly runs skip the counter pass: the counters come from the GPU's counter run at the baseline
// level and from the confirmation run, each named in the explanation.
TEST(ExplainerTest, CountersOfRunsApartAreDiffedAndNamedWhereTheTimedRunsHaveNone) {
  FindingEvidence e = Slowdown(0.06, 0.06);
  e.baseline_counters = CounterRun{7, Point(30, 1.0, v1::OCCUPANCY_LIMITER_WARPS)};
  (*e.baseline_counters->measurement.mutable_counters())[kDramPct] = 84;
  e.new_counters = CounterRun{12, Point(30, 1.0, v1::OCCUPANCY_LIMITER_WARPS)};
  (*e.new_counters->measurement.mutable_counters())[kDramPct] = 71;
  const v1::Explanation x = Explain(e);
  ASSERT_EQ(x.counters_size(), 1);
  EXPECT_EQ(x.counters(0).counter(), kDramPct);
  EXPECT_DOUBLE_EQ(x.counters(0).baseline(), 84);
  EXPECT_DOUBLE_EQ(x.counters(0).new_value(), 71);
  ASSERT_EQ(x.counter_baseline_run_ids_size(), 1);
  EXPECT_EQ(x.counter_baseline_run_ids(0), 7);
  EXPECT_EQ(x.counter_run_id(), 12);
}

TEST(ExplainerTest, TheTimedRunsOwnCountersGoAheadOfRunsApart) {
  FindingEvidence e = Slowdown(0.06, 0.06);
  for (size_t i = 0; i < e.baseline_measurements.size(); ++i) {
    e.baseline_measurements[i].set_run_id(static_cast<int64_t>(i) + 1);
    (*e.baseline_measurements[i].mutable_counters())[kDramPct] = 80;
  }
  (*e.measurement->mutable_counters())[kDramPct] = 60;
  e.baseline_counters = CounterRun{7, Point(30, 1.0, v1::OCCUPANCY_LIMITER_WARPS)};
  (*e.baseline_counters->measurement.mutable_counters())[kDramPct] = 84;
  e.new_counters = CounterRun{12, Point(30, 1.0, v1::OCCUPANCY_LIMITER_WARPS)};
  (*e.new_counters->measurement.mutable_counters())[kDramPct] = 71;
  const v1::Explanation x = Explain(e);
  ASSERT_EQ(x.counters_size(), 1);
  EXPECT_DOUBLE_EQ(x.counters(0).baseline(), 80);
  EXPECT_DOUBLE_EQ(x.counters(0).new_value(), 60);
  EXPECT_EQ(x.counter_baseline_run_ids_size(), 3);
  EXPECT_EQ(x.counter_run_id(), 10);
}

TEST(ExplainerTest, ACounterRunOnOneSideOnlyGivesTheNoteAndNamesNoRuns) {
  FindingEvidence e = Slowdown(0.06, 0.06);
  e.new_counters = CounterRun{12, Point(30, 1.0, v1::OCCUPANCY_LIMITER_WARPS)};
  (*e.new_counters->measurement.mutable_counters())[kDramPct] = 71;
  const v1::Explanation x = Explain(e);
  EXPECT_EQ(x.counters_size(), 0);
  EXPECT_NE(x.counters_note().find("the baseline runs have no counters"), std::string::npos);
  EXPECT_EQ(x.counter_baseline_run_ids_size(), 0);
  EXPECT_EQ(x.counter_run_id(), 0);
}

TEST(ExplainerTest, WithoutTheNewMeasurementItSaysItIsGone) {
  FindingEvidence e = Slowdown(0.05, 0.05);
  e.measurement.reset();
  const v1::Explanation x = Explain(e);
  EXPECT_EQ(x.time().where(), "unknown");
  EXPECT_NE(x.counters_note().find("no longer stored"), std::string::npos);
}

}  // namespace
}  // namespace warpwatch::server::incidents
