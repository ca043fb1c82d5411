// File: tests/server/analysis/counter_plan_test.cc
// The counter job of a run (no database): which runs ask for one, which cases it measures, its spec.
#include "server/analysis/counter_plan.h"

#include <gtest/gtest.h>

#include "server/analysis/confirmation_plan.h"

namespace warpwatch::server::analysis {
namespace {

RunCase CounterPlanCase(const std::string& family, const std::string& variant, bool ok = true) {
  RunCase c;
  c.family = family;
  c.variant = variant;
  c.params = {{"n", 16777216}};
  c.case_canonical = family + "/" + variant + "/n=16777216";
  c.point.ok = ok;
  return c;
}

TEST(CounterPlanTest, OnlyRunsOfTimedJobsAskForACounterJob) {
  v1::JobSpec nightly;
  nightly.add_families("*");
  EXPECT_TRUE(WantsCounterJob(nightly));
  v1::JobSpec counters = nightly;
  counters.mutable_measurement()->set_collect_counters(true);
  EXPECT_FALSE(WantsCounterJob(counters));  // it has them
  v1::JobSpec confirmation = nightly;
  (*confirmation.mutable_labels())[kConfirmsRunLabel] = "4";
  EXPECT_FALSE(WantsCounterJob(confirmation));
  v1::JobSpec counter_job = nightly;
  (*counter_job.mutable_labels())[kCountersForRunLabel] = "4";
  EXPECT_FALSE(WantsCounterJob(counter_job));
}

TEST(CounterPlanTest, MeasuredCasesWithoutCountersAtTheirLevelAreTheJobsCases) {
  const std::vector<RunCase> cases = {CounterPlanCase("memory.coalescing", "copy"),
                                      CounterPlanCase("reduce", "cub"),
                                      CounterPlanCase("matmul", "tiled", /*ok=*/false)};
  const std::vector<RunCase> lacking = CasesWithoutCounters(cases, {cases[1].case_canonical});
  ASSERT_EQ(lacking.size(), 1u);  // reduce has counters, matmul failed
  EXPECT_EQ(lacking[0].case_canonical, cases[0].case_canonical);
  EXPECT_TRUE(CasesWithoutCounters(cases, {cases[0].case_canonical, cases[1].case_canonical})
                  .empty());
}

TEST(CounterPlanTest, TheSpecCollectsCountersForTheCasesOnTheirGpuBehindTheNightlyJobs) {
  v1::JobSpec original;
  original.add_families("*");
  original.mutable_selector()->set_gpu_model("*H100*");
  (*original.mutable_labels())["nightly"] = "1";
  (*original.mutable_labels())[kConfirmsRunLabel] = "3";  // never carried over
  original.mutable_measurement()->set_max_samples(2000);
  original.set_priority(5);
  const v1::JobSpec spec =
      CounterJobSpec(original, {CounterPlanCase("memory.coalescing", "copy")}, "GPU-a", 42);
  EXPECT_TRUE(spec.measurement().collect_counters());
  EXPECT_EQ(spec.measurement().max_samples(), 2000);  // same settings otherwise
  EXPECT_EQ(spec.selector().gpu_uuid(), "GPU-a");
  EXPECT_EQ(spec.selector().gpu_model(), "");
  ASSERT_EQ(spec.families_size(), 1);
  EXPECT_EQ(spec.families(0), "memory.coalescing");
  EXPECT_EQ(spec.labels().at(kCountersForRunLabel), "42");
  EXPECT_EQ(spec.labels().count(kConfirmsRunLabel), 0u);
  EXPECT_EQ(spec.labels().at("nightly"), "1");
  EXPECT_EQ(spec.priority(), 4);
  original.set_priority(-100);
  EXPECT_EQ(CounterJobSpec(original, {CounterPlanCase("reduce", "cub")}, "GPU-a", 42).priority(),
            -100);
  EXPECT_FALSE(WantsCounterJob(spec));  // its run asks for no further counter job
}

TEST(CounterPlanTest, AConfirmationCollectsTheNewLevelsCounters) {
  v1::JobSpec original;
  original.add_families("*");
  const v1::JobSpec spec =
      ConfirmationSpec(original, {CounterPlanCase("reduce", "cub")}, "GPU-a", 9);
  EXPECT_TRUE(spec.measurement().collect_counters());
  EXPECT_EQ(spec.labels().at(kConfirmsRunLabel), "9");
}

}  // namespace
}  // namespace warpwatch::server::analysis
