// JobNotifier over LISTEN/NOTIFY: wakes long-polls (within milliseconds on a quiet machine),
// survives restarts.
//
// A waiter here waits up to a minute; the event it is about is being woken long before that, by
// the change under test. Deadlines are generous (a loaded 2-core machine running sanitized builds
// can stall a thread for seconds) and the measured latency is printed, not asserted.
#include <gtest/gtest.h>

#include <cstdio>
#include <future>
#include <thread>

#include "tests/server/store/store_test_util.h"

namespace warpwatch::server::testing {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// How long a waiter waits, and how long a test gives the event under test to wake it.
constexpr std::chrono::seconds kWaiterTimeout{60};
constexpr std::chrono::seconds kGenerous{30};

class JobNotifierTest : public StoreTest {
 protected:
  // Its tests stop or replicate the server: one of this process's own, not the run's shared one.
  JobNotifierTest() { own_server_ = true; }
  // Waits until the notifier has LISTENed at least once (its first generation bump).
  void WaitUntilListening() {
    ASSERT_TRUE(store_->job_notifier().WaitForJob(0, kGenerous)) << "notifier never connected";
  }
  // Starts a waiter on the current generation; returns how long it waited (ms) or -1 on timeout.
  std::future<int64_t> StartWaiter(std::chrono::milliseconds timeout) {
    const uint64_t seen = store_->job_notifier().Generation();
    return std::async(std::launch::async, [this, seen, timeout]() -> int64_t {
      const auto start = Clock::now();
      if (!store_->job_notifier().WaitForJob(seen, timeout)) return -1;
      return std::chrono::duration_cast<milliseconds>(Clock::now() - start).count();
    });
  }
};

TEST_F(JobNotifierTest, EnqueueWakesAWaiterLongBeforeItsWaitEnds) {
  WaitUntilListening();
  const uint64_t seen = store_->job_notifier().Generation();
  // Nothing but the enqueue below may wake the waiter: nothing is pending now.
  ASSERT_FALSE(store_->job_notifier().WaitForJob(seen, milliseconds(200)));
  std::promise<void> started;
  auto woke = std::async(std::launch::async, [&]() -> bool {
    started.set_value();
    return store_->job_notifier().WaitForJob(seen, kWaiterTimeout);
  });
  started.get_future().wait();
  const auto enqueue_start = Clock::now();
  Enqueue();
  ASSERT_EQ(woke.wait_for(kGenerous), std::future_status::ready) << "the enqueue woke no waiter";
  ASSERT_TRUE(woke.get());
  const auto latency = std::chrono::duration_cast<milliseconds>(Clock::now() - enqueue_start);
  std::printf("wake-up %lld ms after the enqueue began\n", static_cast<long long>(latency.count()));
}

TEST_F(JobNotifierTest, WaitTimesOutWhenNothingIsQueued) {
  WaitUntilListening();
  const auto start = Clock::now();
  EXPECT_FALSE(
      store_->job_notifier().WaitForJob(store_->job_notifier().Generation(), milliseconds(200)));
  EXPECT_GE(Clock::now() - start, milliseconds(190));
}

TEST_F(JobNotifierTest, AJobQueuedBeforeTheWaitStartsIsNotMissed) {
  WaitUntilListening();
  const uint64_t seen = store_->job_notifier().Generation();
  Enqueue();
  // The notification may already have arrived: WaitForJob(seen) must still return true.
  EXPECT_TRUE(store_->job_notifier().WaitForJob(seen, kGenerous));
}

TEST_F(JobNotifierTest, ReleasedJobsWakeWaitersToo) {
  WaitUntilListening();
  const std::string w = Register({MakeDevice("GPU-1", "NVIDIA H100")});
  const uint64_t before_enqueue = store_->job_notifier().Generation();
  const v1::Job job = Enqueue();
  // The enqueue's own notification must have arrived before the waiter starts, or it could be
  // what wakes the waiter.
  ASSERT_TRUE(store_->job_notifier().WaitForJob(before_enqueue, kGenerous));
  ASSERT_OK_AND_ASSIGN(auto lease, store_->ClaimJob(w, "GPU-1", std::chrono::seconds(30)));
  ASSERT_TRUE(lease.has_value());
  auto waiter = StartWaiter(kWaiterTimeout);
  // Nothing wakes it before the release...
  ASSERT_EQ(waiter.wait_for(milliseconds(200)), std::future_status::timeout);
  const auto released_at = Clock::now();
  ASSERT_OK(store_->FinishJob(w, job.id(), lease->run_id, v1::JOB_OUTCOME_RELEASED, "").status());
  // ...and the release does, long before the waiter's minute is up.
  ASSERT_EQ(waiter.wait_for(kGenerous), std::future_status::ready) << "the release woke no waiter";
  EXPECT_GE(waiter.get(), 0);
  const auto latency = std::chrono::duration_cast<milliseconds>(Clock::now() - released_at);
  std::printf("wake-up %lld ms after the release began\n", static_cast<long long>(latency.count()));
}

TEST_F(JobNotifierTest, ListensAgainAfterTheDatabaseRestarts) {
  WaitUntilListening();
  ASSERT_OK(server().Stop());
  std::this_thread::sleep_for(milliseconds(300));
  const uint64_t down = store_->job_notifier().Generation();
  ASSERT_OK(server().Start());
  // Re-LISTEN bumps the generation (notifications may have been missed meanwhile).
  ASSERT_TRUE(store_->job_notifier().WaitForJob(down, kGenerous));
  auto waiter = StartWaiter(kWaiterTimeout);
  Enqueue();
  ASSERT_EQ(waiter.wait_for(kGenerous), std::future_status::ready)
      << "no wake-up after the restart";
  const int64_t waited = waiter.get();
  EXPECT_GE(waited, 0) << "no wake-up after the restart";
}

}  // namespace
}  // namespace warpwatch::server::testing
