// LeaseReaper: expired leases go back to the queue without anyone asking.
#include "server/store/lease_reaper.h"

#include <gtest/gtest.h>

#include <thread>

#include "tests/server/store/store_test_util.h"

namespace warpwatch::server::testing {
namespace {

class LeaseReaperTest : public StoreTest {};

TEST_F(LeaseReaperTest, RequeuesAnExpiredLeaseWithinAFewIntervals) {
  const std::string w = Register({MakeDevice("GPU-1", "NVIDIA H100")});
  const v1::Job job = Enqueue();
  ASSERT_OK_AND_ASSIGN(auto lease, store_->ClaimJob(w, "GPU-1", std::chrono::milliseconds(1)));
  ASSERT_TRUE(lease.has_value());
  LeaseReaper reaper(*store_, std::chrono::milliseconds(50));
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  v1::Job now;
  do {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    ASSERT_OK_AND_ASSIGN(now, store_->GetJob(job.id()));
  } while (now.state() != v1::JOB_STATE_QUEUED && std::chrono::steady_clock::now() < deadline);
  EXPECT_EQ(now.state(), v1::JOB_STATE_QUEUED);
  EXPECT_EQ(reaper.reaped(), 1);
  EXPECT_EQ(reaper.errors(), 0) << reaper.last_error().ToString();
}

TEST_F(LeaseReaperTest, CountsErrorsWhileTheDatabaseIsDownAndStopsPromptly) {
  ASSERT_OK(server().Stop());
  {
    LeaseReaper reaper(*store_, std::chrono::milliseconds(20));
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    EXPECT_GT(reaper.errors(), 0);
    EXPECT_EQ(reaper.last_error().code(), StatusCode::kUnavailable);
  }
  ASSERT_OK(server().Start());
}

}  // namespace
}  // namespace warpwatch::server::testing
