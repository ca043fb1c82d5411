// File: tests/worker/daemon/running_jobs_test.cc
#include "worker/daemon/running_jobs.h"

#include <gtest/gtest.h>

namespace warpwatch::worker {
namespace {

TEST(RunningJobs, ALostLeaseStopsTheRunThatHoldsIt) {
  RunningJobs jobs;
  std::shared_ptr<JobControl> first = jobs.Add(11);
  std::shared_ptr<JobControl> second = jobs.Add(12);
  EXPECT_TRUE(jobs.MarkLost(12));
  EXPECT_TRUE(second->lost);
  EXPECT_TRUE(second->ShouldStop());
  EXPECT_FALSE(first->ShouldStop());
}

// A heartbeat sent while run 11 was running can be answered after the run finished and was
// removed: the answer names it lost, which is no news for a run that has ended.
TEST(RunningJobs, ALostLeaseOfARunThatHasEndedIsReportedAsUntracked) {
  RunningJobs jobs;
  std::shared_ptr<JobControl> control = jobs.Add(11);
  jobs.Remove(11);
  EXPECT_FALSE(jobs.MarkLost(11));
  EXPECT_FALSE(control->lost);
  EXPECT_FALSE(jobs.MarkLost(99));
  EXPECT_TRUE(jobs.empty());
}

}  // namespace
}  // namespace warpwatch::worker
