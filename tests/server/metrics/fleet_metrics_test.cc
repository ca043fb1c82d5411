// File: tests/server/metrics/fleet_metrics_test.cc
// The fleet metrics as a Prometheus scrape would see them.
#include "server/metrics/fleet_metrics.h"

#include <gtest/gtest.h>
#include <prometheus/registry.h>

#include <string>

#include "tests/server/metrics/registry_samples.h"

namespace warpwatch::server::metrics {
namespace {

v1::WorkerInfo Worker(v1::WorkerState state) {
  v1::WorkerInfo worker;
  worker.set_state(state);
  return worker;
}

TEST(FleetMetricsTest, IngestedMeasurementsAreCountedByResult) {
  prometheus::Registry registry;
  FleetMetrics metrics(registry);
  metrics.AddIngested(3, 0);
  metrics.AddIngested(1, 3);
  ScrapedSamples samples = Samples(registry);
  EXPECT_EQ(samples["warpwatch_measurements_ingested_total{result=inserted}"], 4);
  EXPECT_EQ(samples["warpwatch_measurements_ingested_total{result=duplicate}"], 3);
}

TEST(FleetMetricsTest, WorkersAreCountedByStateFromTheLatestListing) {
  prometheus::Registry registry;
  FleetMetrics metrics(registry);
  metrics.SetWorkers({Worker(v1::WORKER_STATE_ONLINE), Worker(v1::WORKER_STATE_OFFLINE),
                      Worker(v1::WORKER_STATE_ONLINE)});
  ScrapedSamples samples = Samples(registry);
  EXPECT_EQ(samples["warpwatch_workers{state=online}"], 2);
  EXPECT_EQ(samples["warpwatch_workers{state=offline}"], 1);
  metrics.SetWorkers({Worker(v1::WORKER_STATE_OFFLINE)});
  samples = Samples(registry);
  EXPECT_EQ(samples["warpwatch_workers{state=online}"], 0);
  EXPECT_EQ(samples["warpwatch_workers{state=offline}"], 1);
}

TEST(FleetMetricsTest, JobsAreCountedByStateWithAbsentStatesAtZero) {
  prometheus::Registry registry;
  FleetMetrics metrics(registry);
  metrics.SetJobs({{v1::JOB_STATE_QUEUED, 4}, {v1::JOB_STATE_RUNNING, 1}});
  ScrapedSamples samples = Samples(registry);
  EXPECT_EQ(samples["warpwatch_jobs{state=queued}"], 4);
  EXPECT_EQ(samples["warpwatch_jobs{state=running}"], 1);
  EXPECT_EQ(samples["warpwatch_jobs{state=succeeded}"], 0);
  metrics.SetJobs({{v1::JOB_STATE_SUCCEEDED, 5}});
  samples = Samples(registry);
  EXPECT_EQ(samples["warpwatch_jobs{state=queued}"], 0);
  EXPECT_EQ(samples["warpwatch_jobs{state=succeeded}"], 5);
}

}  // namespace
}  // namespace warpwatch::server::metrics
