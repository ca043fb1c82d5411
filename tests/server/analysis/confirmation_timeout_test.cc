// What happens to suspects whose confirmation never runs: the job failed or was cancelled, or its
// GPU never came back to take it (CancelStaleConfirmations, AnalysisConfig's
// confirmation_queue_timeout). On a real PostgreSQL.
#include <gtest/gtest.h>

#include <chrono>

#include "server/analysis/analysis_loop.h"
#include "tests/server/analysis/run_analyzer_fixture.h"

namespace warpwatch::server::testing {
namespace {

using std::chrono::hours;

class ConfirmationTimeoutTest : public RunAnalyzerTest {
 protected:
  // A suspected slowdown of Copy with its confirmation job QUEUED; returns the suspect run's id.
  int64_t Suspect() {
    AddBaseline();
    const int64_t run = AddRun({Copy(1.06e-4), Reduce(), Strided(2)});
    EXPECT_EQ(AnalyzeAll(), 1);
    EXPECT_EQ(Count("state = 'SUSPECTED'"), 1);
    return run;
  }
  std::string JobState(int64_t run) {
    return Sql("SELECT state FROM job WHERE confirms_run_id = $1", run).at(0).at(0).as<std::string>();
  }
  void AgeConfirmation(int64_t run, int hours_old) {
    Sql("UPDATE job SET created_at = now() - make_interval(hours => $2) WHERE confirms_run_id = $1",
        run, hours_old);
  }
};

TEST_F(ConfirmationTimeoutTest, AConfirmationJobThatFailsOpensItsSuspectsUnconfirmed) {
  AddBaseline();
  const int64_t run = AddRun({Copy(1.06e-4), Reduce(), Strided(2)});
  ASSERT_EQ(AnalyzeAll(), 1);
  ASSERT_OK_AND_ASSIGN(int none, analysis_store_->OpenSuspectsOfAbandonedConfirmations());
  EXPECT_EQ(none, 0);
  Sql("UPDATE job SET state = 'CANCELLED', finished_at = now() WHERE confirms_run_id = $1", run);
  ASSERT_OK_AND_ASSIGN(int opened, analysis_store_->OpenSuspectsOfAbandonedConfirmations());
  EXPECT_EQ(opened, 1);
  EXPECT_EQ(
      Sql("SELECT state FROM regression WHERE run_id = $1", run).at(0).at(0).as<std::string>(),
      "OPEN");
  pqxx::result e = Sql("SELECT note FROM regression_event WHERE to_state = 'OPEN'");
  ASSERT_EQ(e.size(), 1u);
  EXPECT_NE(e[0][0].as<std::string>().find("CANCELLED"), std::string::npos);
}

TEST_F(ConfirmationTimeoutTest, AConfirmationQueuedPastTheTimeoutIsCancelledAndItsSuspectsOpen) {
  const int64_t run = Suspect();
  AgeConfirmation(run, 25);
  ASSERT_OK_AND_ASSIGN(int cancelled, analysis_store_->CancelStaleConfirmations(hours(24)));
  EXPECT_EQ(cancelled, 1);
  EXPECT_EQ(JobState(run), "CANCELLED");
  const std::string error =
      Sql("SELECT error FROM job WHERE confirms_run_id = $1", run).at(0).at(0).as<std::string>();
  EXPECT_NE(error.find("did not come back"), std::string::npos) << error;
  ASSERT_OK_AND_ASSIGN(int opened, analysis_store_->OpenSuspectsOfAbandonedConfirmations());
  EXPECT_EQ(opened, 1);
  EXPECT_EQ(Count("state = 'OPEN'"), 1);
}

TEST_F(ConfirmationTimeoutTest, AYoungerOrRunningConfirmationIsLeftAlone) {
  const int64_t run = Suspect();
  AgeConfirmation(run, 23);
  ASSERT_OK_AND_ASSIGN(int young, analysis_store_->CancelStaleConfirmations(hours(24)));
  EXPECT_EQ(young, 0);
  AgeConfirmation(run, 48);
  Sql("UPDATE job SET state = 'RUNNING', started_at = now(), lease_owner = 'w-test',"
      " lease_expiry = now() + interval '1 hour' WHERE confirms_run_id = $1",
      run);
  ASSERT_OK_AND_ASSIGN(int running, analysis_store_->CancelStaleConfirmations(hours(24)));
  EXPECT_EQ(running, 0);
  EXPECT_EQ(JobState(run), "RUNNING");
  EXPECT_EQ(Count("state = 'SUSPECTED'"), 1);
}

// The loop does both on every pass: a stale confirmation needs no other trigger.
TEST_F(ConfirmationTimeoutTest, EveryAnalysisPassCancelsStaleConfirmationsAndOpensTheirSuspects) {
  const int64_t run = Suspect();
  AgeConfirmation(run, 2);
  analysis::AnalysisLoopOptions options;
  options.config.confirmation_queue_timeout = hours(1);
  analysis::AnalysisLoop loop(analysis_store_.get(), options);
  ASSERT_OK_AND_ASSIGN(int analysed, loop.RunOnce());
  EXPECT_EQ(analysed, 0);
  EXPECT_EQ(JobState(run), "CANCELLED");
  EXPECT_EQ(Count("state = 'OPEN'"), 1);
}

}  // namespace
}  // namespace warpwatch::server::testing
