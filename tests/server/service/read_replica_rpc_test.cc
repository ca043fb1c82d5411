// History reads from a streaming replica (--read-database-url) over real channels: a real primary
// (this process's own test server) and a hot standby made from it with pg_basebackup. Shows the
// reads served by the standby (a run committed on the primary stays invisible while the standby's
// replay is paused), and what a client sees when the standby lags past the limit or is down: the
// primary answers.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <exception>
#include <pqxx/pqxx>

#include "tests/server/metrics/metrics_scrape.h"
#include "tests/server/service/result_rpc_test_util.h"

namespace warpwatch::testing {
namespace {

class ReadReplicaRpcTest : public ResultRpcTest {
 protected:
  // Its tests stop or replicate the server: one of this process's own, not the run's shared one.
  ReadReplicaRpcTest() { own_server_ = true; }
  void SetUp() override {
    StatusOr<PostgresServer*> primary = OwnPostgres();
    ASSERT_TRUE(primary.ok()) << primary.status().ToString();
    StatusOr<std::unique_ptr<PostgresServer>> standby = PostgresServer::CreateStandby(**primary);
    ASSERT_TRUE(standby.ok()) << standby.status().ToString();
    standby_ = std::move(*standby);
    ResultRpcTest::SetUp();  // a fresh database on the primary, replicated; the server started
    if (HasFatalFailure()) return;
    // The database is a copy of the migrated template: the standby has it once it has replayed
    // the copy, which took longer than the tests' first query on a loaded 2-core machine.
    ASSERT_TRUE(WaitUntil(
        [&] {
          try {
            OnStandby("SELECT 1");
            return true;
          } catch (const std::exception&) {
            return false;
          }
        },
        std::chrono::seconds(60)))
        << "the standby never had this test's database";
  }

  server::ServerConfig ResultConfig() const override {
    server::ServerConfig config = ResultRpcTest::ResultConfig();
    config.read_database_url = StandbyUrl();
    config.read_max_lag_seconds = max_lag_seconds_;
    config.metrics_listen = "127.0.0.1:0";
    return config;
  }

  // This test's database on the standby.
  std::string StandbyUrl() const { return standby_->Url(url_.substr(url_.rfind('/') + 1)); }

  // Run ids ListRuns answers with (empty on error, with *status set).
  std::vector<int64_t> ListedRuns(grpc::Status* status = nullptr) {
    v1::ListRunsRequest request;
    v1::ListRunsResponse response;
    grpc::Status s = Results()->ListRuns(Context(kReaderToken).get(), request, &response);
    if (status != nullptr) *status = s;
    std::vector<int64_t> ids;
    for (const v1::Run& run : response.runs()) ids.push_back(run.id());
    return ids;
  }
  bool Listed(int64_t run) {
    std::vector<int64_t> ids = ListedRuns();
    return std::find(ids.begin(), ids.end(), run) != ids.end();
  }

  // One value from the standby (as the superuser: pausing replay needs it).
  std::string OnStandby(const std::string& sql) {
    pqxx::connection conn(StandbyUrl());
    pqxx::nontransaction tx(conn);
    pqxx::result r = tx.exec(sql);
    return r.empty() || r[0][0].is_null() ? "" : r[0][0].as<std::string>();
  }
  // Client connections of the server's history pool on this database of the standby (not the
  // replica probe's, not this one).
  int StandbyClients() {
    return std::stoi(
        OnStandby("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                  " AND backend_type = 'client backend' AND pid <> pg_backend_pid()"
                  " AND application_name <> 'warpwatch-replica-probe'"));
  }
  void PauseReplay() {
    OnStandby("SELECT pg_wal_replay_pause()");
    ASSERT_TRUE(
        WaitUntil([&] { return OnStandby("SELECT pg_get_wal_replay_pause_state()") == "paused"; },
                  std::chrono::seconds(30)));
  }

  // A run, listed once the history reads are served by the standby: the server's pool holds a
  // connection there (only history reads open one).
  int64_t RunReadFromTheStandby() {
    const int64_t run = MakeRun({ResultPoint("tree", 1e-3)});
    EXPECT_TRUE(
        WaitUntil([&] { return Listed(run) && StandbyClients() > 0; }, std::chrono::seconds(30)))
        << "the standby never answered ListRuns";
    return run;
  }

  grpc::StatusCode QueryCode(int64_t run) {
    v1::QueryMeasurementsRequest request;
    request.set_run_id(run);
    v1::QueryMeasurementsResponse response;
    return Results()
        ->QueryMeasurements(Context(kReaderToken).get(), request, &response)
        .error_code();
  }

  // warpwatch_read_replica_in_use now; -1 when absent.
  double InUseGauge() {
    return SampleValue(FetchMetrics(runtime_->metrics_ports().at(0)),
                       "warpwatch_read_replica_in_use", {});
  }

  double max_lag_seconds_ = 3600;
  std::unique_ptr<PostgresServer> standby_;
};

TEST_F(ReadReplicaRpcTest, HistoryReadsAreServedByTheStandbyAndSeeWhatItHasReplayed) {
  const int64_t first = RunReadFromTheStandby();
  PauseReplay();
  const int64_t second = MakeRun({ResultPoint("tree", 1e-3)});  // committed on the primary
  ASSERT_NE(second, 0);
  ASSERT_EQ(Sql("SELECT count(*) FROM run WHERE id = $1", second), "1");

  grpc::Status status;
  std::vector<int64_t> listed = ListedRuns(&status);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_NE(std::find(listed.begin(), listed.end(), first), listed.end());
  EXPECT_EQ(std::find(listed.begin(), listed.end(), second), listed.end())
      << "ListRuns answered from the primary";
  EXPECT_EQ(QueryCode(second), grpc::StatusCode::NOT_FOUND) << "QueryMeasurements on the primary";
  EXPECT_EQ(QueryCode(first), grpc::StatusCode::OK);
  v1::CompareRunsRequest compare;
  compare.set_base_run_id(first);
  compare.set_new_run_id(second);
  v1::CompareRunsResponse compared;
  EXPECT_EQ(Results()->CompareRuns(Context(kReaderToken).get(), compare, &compared).error_code(),
            grpc::StatusCode::NOT_FOUND);

  OnStandby("SELECT pg_wal_replay_resume()");
  EXPECT_TRUE(WaitUntil([&] { return Listed(second); }, std::chrono::seconds(30)));
  EXPECT_EQ(QueryCode(second), grpc::StatusCode::OK);
}

TEST_F(ReadReplicaRpcTest, WritesGoToThePrimaryWhileTheStandbyServesReads) {
  RunReadFromTheStandby();
  // UpdateRegression writes: a standby would refuse it (read-only transaction).
  const int64_t run = MakeRun({ResultPoint("tree", 1e-3)});
  const int64_t regression = InsertRegression(run, "OPEN");
  v1::UpdateRegressionRequest request;
  request.set_id(regression);
  request.set_state(v1::REGRESSION_STATE_ACKNOWLEDGED);
  v1::Regression updated;
  grpc::Status s = Results()->UpdateRegression(Context(kSubmitterToken).get(), request, &updated);
  EXPECT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(Sql("SELECT state FROM regression WHERE id = $1", regression), "ACKNOWLEDGED");
}

class LaggingReplicaRpcTest : public ReadReplicaRpcTest {
 protected:
  LaggingReplicaRpcTest() { max_lag_seconds_ = 1; }
};

TEST_F(LaggingReplicaRpcTest, AStandbyLaggingPastTheLimitIsLeftForThePrimary) {
  RunReadFromTheStandby();
  PauseReplay();
  const int64_t late = MakeRun({ResultPoint("tree", 1e-3)});
  ASSERT_NE(late, 0);
  // Over a second behind, the standby is left: the primary lists the run the standby lacks.
  EXPECT_TRUE(WaitUntil([&] { return Listed(late); }, std::chrono::seconds(30)));
  EXPECT_EQ(QueryCode(late), grpc::StatusCode::OK);
  EXPECT_EQ(OnStandby("SELECT count(*) FROM run WHERE id = " + std::to_string(late)), "0")
      << "the standby replayed the run: the test shows nothing";
}

TEST_F(ReadReplicaRpcTest, AStandbyThatIsDownIsLeftForThePrimaryUntilItReturns) {
  RunReadFromTheStandby();
  EXPECT_EQ(InUseGauge(), 1);
  ASSERT_TRUE(standby_->Stop().ok());
  const int64_t run = MakeRun({ResultPoint("tree", 1e-3)});
  // At most one health probe (0.1 s here) may answer UNAVAILABLE; then the primary answers.
  EXPECT_TRUE(WaitUntil([&] { return Listed(run); }, std::chrono::seconds(30)));
  grpc::Status status;
  ListedRuns(&status);
  EXPECT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(QueryCode(run), grpc::StatusCode::OK);
  EXPECT_EQ(InUseGauge(), 0);

  ASSERT_TRUE(standby_->Start().ok());
  EXPECT_TRUE(
      WaitUntil([&] { return Listed(run) && StandbyClients() > 0; }, std::chrono::seconds(30)))
      << "the standby was not used again once back";
  EXPECT_TRUE(WaitUntil([&] { return InUseGauge() == 1; }, std::chrono::seconds(30)));
}

}  // namespace
}  // namespace warpwatch::testing
