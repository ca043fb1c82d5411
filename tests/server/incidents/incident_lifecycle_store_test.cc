// File: tests/server/incidents/incident_lifecycle_store_test.cc
// An incident's lifecycle on a real PostgreSQL (docs/incidents.md "Lifecycle"): people's moves
// carried to the findings with who and when, the detector's moves, and bad moves refused.
#include <gtest/gtest.h>

#include "tests/server/incidents/incident_test_fixture.h"

namespace warpwatch::server::testing {
namespace {

class IncidentLifecycleTest : public IncidentTest {
 protected:
  static constexpr int kCases = 3;
  // Two GPUs' baseline, then GPU-0 on the new driver 5 % slower: one SOFTWARE incident.
  int64_t DriverIncident() {
    Baseline(2, kCases);
    RunNight(0, kCases, Upgraded());
    const std::vector<v1::Incident> incidents = Incidents();
    EXPECT_EQ(incidents.size(), 1u);
    return incidents.empty() ? 0 : incidents[0].id();
  }
  static GpuNight Upgraded() {
    GpuNight night;
    night.driver = kNewDriver;
    night.scale = 1.05;
    return night;
  }
  int FindingsIn(const std::string& state) {
    return Sql("SELECT count(*) FROM regression WHERE kind = 'REGRESSION' AND state = $1", state)
        .at(0)
        .at(0)
        .as<int>();
  }
};

TEST_F(IncidentLifecycleTest, AcknowledgingAnIncidentAcknowledgesItsFindingsAndRecordsWho) {
  const int64_t id = DriverIncident();
  StatusOr<v1::Incident> acked =
      incidents_->UpdateIncident(id, v1::INCIDENT_STATE_ACKNOWLEDGED, "looking", "alice");
  ASSERT_TRUE(acked.ok()) << acked.status().ToString();
  EXPECT_EQ(acked->state(), v1::INCIDENT_STATE_ACKNOWLEDGED);
  EXPECT_EQ(acked->updated_by(), "alice");
  ASSERT_EQ(acked->history_size(), 2);
  EXPECT_EQ(acked->history(0).to_state(), v1::INCIDENT_STATE_OPEN);
  EXPECT_EQ(acked->history(0).actor(), "detector");
  EXPECT_EQ(acked->history(1).from_state(), v1::INCIDENT_STATE_OPEN);
  EXPECT_EQ(acked->history(1).to_state(), v1::INCIDENT_STATE_ACKNOWLEDGED);
  EXPECT_EQ(acked->history(1).actor(), "alice");
  EXPECT_EQ(acked->history(1).note(), "looking");
  EXPECT_GT(acked->history(1).at().seconds(), 0);
  EXPECT_EQ(FindingsIn("ACKNOWLEDGED"), kCases);
  EXPECT_EQ(Sql("SELECT count(*) FROM regression_event WHERE actor = 'alice'"
                " AND to_state = 'ACKNOWLEDGED'")
                .at(0)
                .at(0)
                .as<int>(),
            kCases);
  // An acknowledged incident is no longer paged for.
  StatusOr<std::vector<incidents::OpenIncident>> open = incidents_->ListOpenIncidents();
  ASSERT_TRUE(open.ok());
  EXPECT_TRUE(open->empty());
}

TEST_F(IncidentLifecycleTest, AcceptingTheNewLevelAcceptsItsFindings) {
  const int64_t id = DriverIncident();
  ASSERT_TRUE(
      incidents_->UpdateIncident(id, v1::INCIDENT_STATE_ACCEPTED, "new driver", "alice").ok());
  EXPECT_EQ(FindingsIn("ACCEPTED"), kCases);
  // The accepted level is the GPU's baseline now: another night there raises nothing.
  RunNight(0, kCases, Upgraded());
  EXPECT_EQ(Sql("SELECT count(*) FROM regression WHERE kind = 'REGRESSION'").at(0).at(0).as<int>(),
            kCases);
}

TEST_F(IncidentLifecycleTest, AnIllegalMoveIsFailedPreconditionNamingBothStates) {
  const int64_t id = DriverIncident();
  ASSERT_TRUE(incidents_->UpdateIncident(id, v1::INCIDENT_STATE_FIXED, "", "alice").ok());
  StatusOr<v1::Incident> bad =
      incidents_->UpdateIncident(id, v1::INCIDENT_STATE_ACKNOWLEDGED, "", "alice");
  ASSERT_EQ(bad.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(bad.status().message().find("FIXED -> ACKNOWLEDGED"), std::string::npos)
      << bad.status().message();
}

TEST_F(IncidentLifecycleTest, AnUnknownIncidentIsNotFound) {
  EXPECT_EQ(incidents_->GetIncident(424242).status().code(), StatusCode::kNotFound);
  EXPECT_EQ(
      incidents_->UpdateIncident(424242, v1::INCIDENT_STATE_DISMISSED, "", "alice").status().code(),
      StatusCode::kNotFound);
}

TEST_F(IncidentLifecycleTest, AFindingJoiningADismissedIncidentReopensIt) {
  const int64_t id = DriverIncident();
  ASSERT_TRUE(incidents_->UpdateIncident(id, v1::INCIDENT_STATE_DISMISSED, "", "alice").ok());
  RunNight(1, kCases, Upgraded());  // the other GPU gets the same driver the same night
  StatusOr<v1::Incident> got = incidents_->GetIncident(id);
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(got->state(), v1::INCIDENT_STATE_REOPENED);
  EXPECT_EQ(got->findings(), 2 * kCases);
  EXPECT_EQ(got->history(got->history_size() - 1).actor(), "detector");
}

TEST_F(IncidentLifecycleTest, TheDetectorFixesAnIncidentWhoseLevelReturned) {
  const int64_t id = DriverIncident();
  GpuNight back;  // the old driver again, at the old level
  RunNight(0, kCases, back);
  EXPECT_EQ(FindingsIn("FIXED"), kCases);
  StatusOr<v1::Incident> got = incidents_->GetIncident(id);
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(got->state(), v1::INCIDENT_STATE_FIXED);
  EXPECT_EQ(got->updated_by(), "detector");
}

}  // namespace
}  // namespace warpwatch::server::testing
