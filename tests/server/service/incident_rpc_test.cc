// File: tests/server/service/incident_rpc_test.cc
// IncidentService over real channels to an in-process server on a real PostgreSQL, always with two
// credentials: readers list and read, submitters triage, workers neither; bad input refused.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "server/incidents/incident_sweep.h"
#include "server/store/pg_incident_store.h"
#include "tests/server/service/result_rpc_test_util.h"
#include "warpwatch/v1/incident.grpc.pb.h"

namespace warpwatch::testing {
namespace {

class IncidentRpcTest : public ResultRpcTest {
 protected:
  void SetUp() override {
    ResultRpcTest::SetUp();
    if (HasFatalFailure()) return;
    const int64_t run = MakeRun({ResultPoint("tree", 1e-3), ResultPoint("warp", 1e-3)});
    ASSERT_GT(run, 0);
    finding_ = InsertRegression(run, "OPEN", "tree");
    InsertRegression(run, "OPEN", "warp");
    // The sweep the server runs after each analysed run, run here on the rows written above.
    server::PgStoreOptions options;
    options.url = url_;
    StatusOr<std::unique_ptr<server::incidents::IncidentStore>> store =
        server::OpenPgIncidentStore(options);
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    // The server's own sweep (after it analyses the run) may hold the sweep's lock meanwhile:
    // sweep until both rows are grouped, whoever groups them.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (Sql("SELECT count(*) FROM regression WHERE incident_id IS NOT NULL AND run_id = $1",
               run) != "2") {
      ASSERT_LT(std::chrono::steady_clock::now(), deadline) << "the findings were never grouped";
      StatusOr<server::incidents::SweepSummary> swept = server::incidents::SweepIncidents(**store);
      ASSERT_TRUE(swept.ok()) << swept.status().ToString();
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    v1::ListIncidentsResponse listed;
    ASSERT_TRUE(List(kReaderToken, &listed).ok());
    ASSERT_EQ(listed.incidents_size(), 1);
    incident_ = listed.incidents(0).id();
  }

  std::unique_ptr<v1::IncidentService::Stub> Incidents() const {
    return v1::IncidentService::NewStub(Channel());
  }
  grpc::Status List(const std::string& token, v1::ListIncidentsResponse* out) {
    return Incidents()->ListIncidents(Context(token).get(), v1::ListIncidentsRequest(), out);
  }
  grpc::Status Update(const std::string& token, int64_t id, v1::IncidentState state,
                      v1::Incident* out) {
    v1::UpdateIncidentRequest request;
    request.set_id(id);
    request.set_state(state);
    request.set_note("seen");
    return Incidents()->UpdateIncident(Context(token).get(), request, out);
  }

  int64_t finding_ = 0;
  int64_t incident_ = 0;
};

TEST_F(IncidentRpcTest, AReaderListsAndReadsButCannotTriage) {
  v1::GetIncidentRequest get;
  get.set_id(incident_);
  v1::Incident incident;
  grpc::Status s = Incidents()->GetIncident(Context(kReaderToken).get(), get, &incident);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(incident.regressions_size(), 2);
  EXPECT_EQ(incident.history_size(), 1);
  v1::ExplainFindingRequest explain;
  explain.set_regression_id(finding_);
  v1::Regression explained;
  s = Incidents()->ExplainFinding(Context(kReaderToken).get(), explain, &explained);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(explained.incident_id(), incident_);
  EXPECT_GE(explained.explanation().causes_size(), 1);
  v1::Incident updated;
  EXPECT_EQ(Update(kReaderToken, incident_, v1::INCIDENT_STATE_ACKNOWLEDGED, &updated).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
}

TEST_F(IncidentRpcTest, ASubmitterTriagesAndIsRecordedAsItsPrincipal) {
  v1::Incident updated;
  grpc::Status s = Update(kSubmitterToken, incident_, v1::INCIDENT_STATE_ACKNOWLEDGED, &updated);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(updated.state(), v1::INCIDENT_STATE_ACKNOWLEDGED);
  EXPECT_EQ(updated.updated_by(), "ci");
  EXPECT_EQ(Sql("SELECT count(*) FROM regression WHERE state = 'ACKNOWLEDGED' AND updated_by ="
                " 'ci' AND incident_id = $1",
                incident_),
            "2");
}

TEST_F(IncidentRpcTest, AWorkerNeitherReadsNorTriages) {
  v1::ListIncidentsResponse listed;
  EXPECT_EQ(List(kWorkerToken, &listed).error_code(), grpc::StatusCode::PERMISSION_DENIED);
  v1::Incident updated;
  EXPECT_EQ(Update(kWorkerToken, incident_, v1::INCIDENT_STATE_DISMISSED, &updated).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
}

TEST_F(IncidentRpcTest, AnUnknownIncidentIsNotFound) {
  v1::GetIncidentRequest get;
  get.set_id(incident_ + 1000);
  v1::Incident incident;
  EXPECT_EQ(Incidents()->GetIncident(Context(kReaderToken).get(), get, &incident).error_code(),
            grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(
      Update(kSubmitterToken, incident_ + 1000, v1::INCIDENT_STATE_FIXED, &incident).error_code(),
      grpc::StatusCode::NOT_FOUND);
}

TEST_F(IncidentRpcTest, AnIllegalMoveIsFailedPreconditionNamingBothStates) {
  v1::Incident updated;
  ASSERT_TRUE(Update(kSubmitterToken, incident_, v1::INCIDENT_STATE_FIXED, &updated).ok());
  grpc::Status s = Update(kSubmitterToken, incident_, v1::INCIDENT_STATE_ACKNOWLEDGED, &updated);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_NE(s.error_message().find("FIXED -> ACKNOWLEDGED"), std::string::npos)
      << s.error_message();
}

TEST_F(IncidentRpcTest, ListRegressionsCarriesEachFindingsIncidentAndExplanation) {
  v1::ListRegressionsResponse listed;
  grpc::Status s = Results()->ListRegressions(Context(kReaderToken).get(),
                                              v1::ListRegressionsRequest(), &listed);
  ASSERT_TRUE(s.ok()) << s.error_message();
  ASSERT_EQ(listed.regressions_size(), 2);
  for (const v1::Regression& g : listed.regressions()) {
    EXPECT_EQ(g.incident_id(), incident_);
    EXPECT_TRUE(g.has_explanation());
  }
}

}  // namespace
}  // namespace warpwatch::testing
