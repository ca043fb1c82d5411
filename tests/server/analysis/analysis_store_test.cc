// Claiming finished runs for analysis on a real PostgreSQL: once each, never twice across
// replicas, skipped when not judged, rolled back or skipped when the analysis fails, and the
// NOTIFY that wakes the loop.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <thread>

#include "tests/server/analysis/analysis_test_util.h"

namespace warpwatch::server::testing {
namespace {

using analysis::AnalysisTx;

std::string AnalysisState(AnalysisTest* t, int64_t run_id) {
  return t->Sql("SELECT analysis_state FROM run WHERE id = $1", run_id)
      .at(0)
      .at(0)
      .as<std::string>();
}

using AnalysisStoreTest = AnalysisTest;

TEST_F(AnalysisStoreTest, AFinishedRunIsAnalysedOnceAndMarkedDone) {
  const int64_t run = AddRun({Point{}});
  int calls = 0;
  int64_t seen = 0;
  auto analyze = [&](AnalysisTx& tx) {
    ++calls;
    seen = tx.run().run_id;
    EXPECT_EQ(tx.run().device_uuid, kDeviceA);
    EXPECT_EQ(tx.run().gpu_model, kModel);
    EXPECT_NE(tx.run().job_id, 0);
    EXPECT_GT(tx.run().finished_at_micros, 0);
    return OkStatus();
  };
  ASSERT_OK_AND_ASSIGN(std::optional<int64_t> first, analysis_store_->AnalyzeNextRun(analyze));
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(*first, run);
  EXPECT_EQ(seen, run);
  ASSERT_OK_AND_ASSIGN(std::optional<int64_t> second, analysis_store_->AnalyzeNextRun(analyze));
  EXPECT_FALSE(second.has_value());
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(AnalysisState(this, run), "DONE");
  EXPECT_FALSE(Sql("SELECT analyzed_at FROM run WHERE id = $1", run).at(0).at(0).is_null());
}

TEST_F(AnalysisStoreTest, ARunStillRunningIsNotClaimed) {
  const int64_t run = AddRun({Point{}});
  Sql("UPDATE run SET state = 'RUNNING', finished_at = NULL WHERE id = $1", run);
  ASSERT_OK_AND_ASSIGN(std::optional<int64_t> claimed,
                       analysis_store_->AnalyzeNextRun([](AnalysisTx&) { return OkStatus(); }));
  EXPECT_FALSE(claimed.has_value());
  EXPECT_EQ(AnalysisState(this, run), "PENDING");
}

TEST_F(AnalysisStoreTest, ARunThatDidNotSucceedIsSkippedWithoutAnalysis) {
  const int64_t failed = AddRun({Point{}}, Ending("FAILED"));
  const int64_t cancelled = AddRun({Point{}}, Ending("CANCELLED"));
  int calls = 0;
  auto analyze = [&](AnalysisTx&) {
    ++calls;
    return OkStatus();
  };
  ASSERT_OK_AND_ASSIGN(std::optional<int64_t> a, analysis_store_->AnalyzeNextRun(analyze));
  ASSERT_OK_AND_ASSIGN(std::optional<int64_t> b, analysis_store_->AnalyzeNextRun(analyze));
  EXPECT_EQ(a, failed);
  EXPECT_EQ(b, cancelled);
  EXPECT_EQ(calls, 0);
  EXPECT_EQ(AnalysisState(this, failed), "SKIPPED");
  EXPECT_EQ(AnalysisState(this, cancelled), "SKIPPED");
}

TEST_F(AnalysisStoreTest, AnAnalysisThatCannotSucceedRollsBackAndSkipsTheRun) {
  const int64_t run = AddRun({Point{}});
  const int64_t next = AddRun({Point{}});
  StatusOr<std::optional<int64_t>> r = analysis_store_->AnalyzeNextRun([&](AnalysisTx& tx) {
    analysis::StoredChangePoint cp;
    cp.run_id = tx.run().run_id;
    EXPECT_TRUE(tx.ReplaceChangePoints({{{"s@m", ""}, {cp}}}).ok());  // written, then rolled back
    return InternalError("analysis bug");
  });
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInternal);
  EXPECT_NE(r.status().message().find("run " + std::to_string(run)), std::string::npos)
      << r.status().ToString();
  EXPECT_EQ(AnalysisState(this, run), "SKIPPED");
  EXPECT_EQ(Sql("SELECT count(*) FROM change_point").at(0).at(0).as<int>(), 0);
  // The run behind it is not blocked.
  ASSERT_OK_AND_ASSIGN(std::optional<int64_t> after,
                       analysis_store_->AnalyzeNextRun([](AnalysisTx&) { return OkStatus(); }));
  EXPECT_EQ(after, next);
}

TEST_F(AnalysisStoreTest, AnAnalysisThatMeetsAnOutageLeavesTheRunPending) {
  const int64_t run = AddRun({Point{}});
  StatusOr<std::optional<int64_t>> r = analysis_store_->AnalyzeNextRun(
      [](AnalysisTx&) { return UnavailableError("database went away"); });
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kUnavailable);
  EXPECT_EQ(AnalysisState(this, run), "PENDING");
}

// Two replicas (two stores, two connection pools, two threads) drain the same queue: every run is
// analysed exactly once.
TEST_F(AnalysisStoreTest, TwoAnalysersAtOnceNeverAnalyseOneRunTwice) {
  std::vector<int64_t> runs;
  for (int i = 0; i < 24; ++i) runs.push_back(AddRun({Point{}}));
  std::unique_ptr<analysis::AnalysisStore> other = OpenAnalysisStore();
  std::mutex mu;
  std::multiset<int64_t> analysed;
  std::atomic<int> per_replica[2] = {0, 0};
  auto drain = [&](analysis::AnalysisStore* store, int replica) {
    while (true) {
      StatusOr<std::optional<int64_t>> r = store->AnalyzeNextRun([&](AnalysisTx& tx) {
        {
          std::lock_guard<std::mutex> lock(mu);
          analysed.insert(tx.run().run_id);
        }
        ++per_replica[replica];
        std::this_thread::sleep_for(std::chrono::milliseconds(20));  // hold the claim a while
        return OkStatus();
      });
      EXPECT_TRUE(r.ok()) << r.status().ToString();
      if (!r.ok() || !r->has_value()) return;
    }
  };
  std::thread a(drain, analysis_store_.get(), 0);
  std::thread b(drain, other.get(), 1);
  a.join();
  b.join();
  EXPECT_EQ(analysed.size(), runs.size());
  for (int64_t id : runs) EXPECT_EQ(analysed.count(id), 1u) << "run " << id;
  EXPECT_GT(per_replica[0].load(), 0);
  EXPECT_GT(per_replica[1].load(), 0);
  EXPECT_EQ(Sql("SELECT count(*) FROM run WHERE analysis_state <> 'DONE'").at(0).at(0).as<int>(),
            0);
}

TEST_F(AnalysisStoreTest, AFinishingRunWakesTheWaiter) {
  // The first call establishes LISTEN and says "look now".
  ASSERT_OK_AND_ASSIGN(bool fresh, analysis_store_->WaitForFinishedRun(std::chrono::seconds(2)));
  EXPECT_TRUE(fresh);
  ASSERT_OK_AND_ASSIGN(bool idle,
                       analysis_store_->WaitForFinishedRun(std::chrono::milliseconds(200)));
  EXPECT_FALSE(idle);
  std::thread finisher([this] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    AddRun({Point{}});
  });
  const auto start = std::chrono::steady_clock::now();
  ASSERT_OK_AND_ASSIGN(bool woken, analysis_store_->WaitForFinishedRun(std::chrono::seconds(20)));
  const auto waited = std::chrono::steady_clock::now() - start;
  finisher.join();
  EXPECT_TRUE(woken);
  EXPECT_LT(waited, std::chrono::seconds(10));
}

TEST_F(AnalysisStoreTest, ARunningRunDoesNotWakeTheWaiter) {
  ASSERT_OK_AND_ASSIGN(bool fresh, analysis_store_->WaitForFinishedRun(std::chrono::seconds(2)));
  EXPECT_TRUE(fresh);
  Sql("INSERT INTO run (worker_id, device_uuid, device_name, state) VALUES ('w', 'u', 'm',"
      " 'RUNNING')");
  ASSERT_OK_AND_ASSIGN(bool woken,
                       analysis_store_->WaitForFinishedRun(std::chrono::milliseconds(500)));
  EXPECT_FALSE(woken);
}

}  // namespace
}  // namespace warpwatch::server::testing
