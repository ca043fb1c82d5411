// The store with its database down: UNAVAILABLE within about a second, and recovery without
// recreating the store once the database is back.
#include <gtest/gtest.h>

#include <functional>
#include <thread>

#include "tests/server/store/store_test_util.h"

namespace warpwatch::server::testing {
namespace {

using Clock = std::chrono::steady_clock;

class AvailabilityTest : public StoreTest {
 protected:
  // Its tests stop or replicate the server: one of this process's own, not the run's shared one.
  AvailabilityTest() { own_server_ = true; }
};

// Runs `call`, expects UNAVAILABLE within 1.5 s (1 s connect/acquire timeout plus slack).
void ExpectQuicklyUnavailable(const char* name, const std::function<Status()>& call) {
  const auto start = Clock::now();
  const Status s = call();
  const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
  EXPECT_EQ(s.code(), StatusCode::kUnavailable) << name << ": " << s.ToString();
  EXPECT_LT(took.count(), 1500) << name;
}

TEST_F(AvailabilityTest, CallsAnswerUnavailableQuicklyWhileTheDatabaseIsDownThenRecover) {
  const std::string w = Register({MakeDevice("GPU-1", "NVIDIA H100")});
  const v1::Job job = Enqueue();
  ASSERT_OK(store_->Ping());
  ASSERT_OK(server().Stop());

  ExpectQuicklyUnavailable("Ping", [&] { return store_->Ping(); });
  ExpectQuicklyUnavailable("GetJob", [&] { return store_->GetJob(job.id()).status(); });
  ExpectQuicklyUnavailable("EnqueueJob",
                           [&] { return store_->EnqueueJob(MakeSpec(), 1, "x", "").status(); });
  ExpectQuicklyUnavailable(
      "ClaimJob", [&] { return store_->ClaimJob(w, "GPU-1", std::chrono::seconds(5)).status(); });
  ExpectQuicklyUnavailable("ListJobs", [&] { return store_->ListJobs(JobFilter()).status(); });
  ExpectQuicklyUnavailable("Ping again", [&] { return store_->Ping(); });

  ASSERT_OK(server().Start());
  // The same store object works again: broken connections were dropped and replaced.
  ASSERT_OK(store_->Ping());
  ASSERT_OK_AND_ASSIGN(v1::Job fetched, store_->GetJob(job.id()));
  EXPECT_EQ(fetched.state(), v1::JOB_STATE_QUEUED);
  ASSERT_OK_AND_ASSIGN(auto lease, store_->ClaimJob(w, "GPU-1", std::chrono::seconds(5)));
  EXPECT_TRUE(lease.has_value());
}

TEST_F(AvailabilityTest, ManyConcurrentCallsWhileDownAllAnswerWithinTheBound) {
  ASSERT_OK(store_->Ping());
  ASSERT_OK(server().Stop());
  std::vector<std::thread> threads;
  std::vector<Status> results(16);
  std::vector<int64_t> took_ms(16);
  for (int i = 0; i < 16; ++i) {
    threads.emplace_back([&, i] {
      const auto start = Clock::now();
      results[i] = store_->Ping();
      took_ms[i] =
          std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
    });
  }
  for (std::thread& t : threads) t.join();
  for (int i = 0; i < 16; ++i) {
    EXPECT_EQ(results[i].code(), StatusCode::kUnavailable) << results[i].ToString();
    EXPECT_LT(took_ms[i], 2500);
  }
  ASSERT_OK(server().Start());
  ASSERT_OK(store_->Ping());
}

TEST(PgStoreOptionsTest, EmptyUrlOrPoolSizeIsInvalid) {
  PgStoreOptions options;
  EXPECT_EQ(OpenPgStore(options).status().code(), StatusCode::kInvalidArgument);
  options.url = "postgresql://127.0.0.1:1/x";
  options.pool_size = 0;
  EXPECT_EQ(OpenPgStore(options).status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace warpwatch::server::testing
