// File: tests/server/metrics/schedule_metrics_test.cc
// The scheduler's fire counters as a scrape reads them: one per recorded decision, by schedule
// and a bounded outcome, jobs created per schedule, duplicates of another replica not counted.
#include "server/metrics/schedule_metrics.h"

#include <gtest/gtest.h>
#include <prometheus/registry.h>

#include "tests/server/metrics/registry_samples.h"

namespace warpwatch::server::metrics {
namespace {

schedule::FireOutcome Outcome(const std::string& name, int64_t run_id, int jobs,
                              const std::string& skipped_reason = "") {
  schedule::FireOutcome outcome;
  outcome.schedule_name = name;
  outcome.schedule_run_id = run_id;
  outcome.jobs = jobs;
  outcome.skipped_reason = skipped_reason;
  return outcome;
}

TEST(ScheduleMetricsTest, FiresCountByScheduleAndOutcomeWithTheJobsTheyCreated) {
  prometheus::Registry registry;
  ScheduleMetrics metrics(registry);
  metrics.ObserveFire(Outcome("nightly", 1, 2));
  metrics.ObserveFire(Outcome("nightly", 2, 2));
  metrics.ObserveFire(Outcome("nightly", 3, 0, schedule::kSkippedOverlap));
  metrics.ObserveFire(Outcome("weekly", 4, 1));
  auto s = Samples(registry);
  EXPECT_EQ(s["warpwatch_schedule_fires_total{outcome=fired}{schedule=nightly}"], 2);
  EXPECT_EQ(s["warpwatch_schedule_fires_total{outcome=skipped_overlap}{schedule=nightly}"], 1);
  EXPECT_EQ(s["warpwatch_schedule_fires_total{outcome=fired}{schedule=weekly}"], 1);
  EXPECT_EQ(s["warpwatch_schedule_jobs_created_total{schedule=nightly}"], 4);
  EXPECT_EQ(s["warpwatch_schedule_jobs_created_total{schedule=weekly}"], 1);
}

TEST(ScheduleMetricsTest, ADueTimeAnotherReplicaRecordedIsNotCounted) {
  prometheus::Registry registry;
  ScheduleMetrics metrics(registry);
  metrics.ObserveFire(Outcome("nightly", 0, 0));
  for (const auto& [name, value] : Samples(registry)) {
    EXPECT_EQ(name.rfind("warpwatch_schedule_", 0), std::string::npos) << name << " " << value;
  }
}

TEST(ScheduleMetricsTest, SkipReasonsMapToABoundedOutcomeAndErrorsKeepTheirTextOutOfLabels) {
  EXPECT_STREQ(FireOutcomeLabel(Outcome("a", 1, 0, schedule::kSkippedMissed)), "skipped_missed");
  EXPECT_STREQ(FireOutcomeLabel(Outcome("a", 1, 0, schedule::kSkippedNoDevice)),
               "skipped_no_gpu");
  EXPECT_STREQ(FireOutcomeLabel(Outcome("a", 1, 0, "invalid cron: unknown time zone Mars/Base")),
               "skipped_error");
  EXPECT_STREQ(FireOutcomeLabel(Outcome("a", 1, 0, "undecodable schedule: decoding stored x")),
               "skipped_error");
  EXPECT_STREQ(FireOutcomeLabel(Outcome("a", 1, 3)), "fired");
}

}  // namespace
}  // namespace warpwatch::server::metrics
