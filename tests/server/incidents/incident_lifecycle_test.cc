// File: tests/server/incidents/incident_lifecycle_test.cc
#include "server/incidents/incident_lifecycle.h"

#include <gtest/gtest.h>

namespace warpwatch::server::incidents {
namespace {

TEST(IncidentLifecycleTest, PeopleMayMoveAnOpenIncidentToEveryTriageState) {
  for (const char* to : {"ACKNOWLEDGED", "ACCEPTED", "FIXED", "DISMISSED"}) {
    EXPECT_TRUE(CheckPersonMove(1, "OPEN", to).ok()) << to;
  }
}

TEST(IncidentLifecycleTest, OnlyAClosedIncidentCanBeReopened) {
  EXPECT_TRUE(CheckPersonMove(1, "FIXED", "REOPENED").ok());
  EXPECT_TRUE(CheckPersonMove(1, "ACCEPTED", "REOPENED").ok());
  const Status s = CheckPersonMove(7, "OPEN", "REOPENED");
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(s.message().find("incident 7 is OPEN: cannot go OPEN -> REOPENED"), std::string::npos)
      << s.message();
}

TEST(IncidentLifecycleTest, AcknowledgingTwiceIsRefused) {
  EXPECT_EQ(CheckPersonMove(1, "ACKNOWLEDGED", "ACKNOWLEDGED").code(),
            StatusCode::kFailedPrecondition);
}

TEST(IncidentLifecycleTest, OpenIsNotATriageState) {
  EXPECT_EQ(CheckPersonMove(1, "FIXED", "OPEN").code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(CheckPersonMove(1, "FIXED", "").code(), StatusCode::kInvalidArgument);
}

TEST(IncidentLifecycleTest, TheDetectorDismissesAnIncidentWhoseFindingsWereAllNoise) {
  FindingCounts noise;
  noise.findings = 3;
  const std::optional<DetectorMove> move = DetectorMoveFor("OPEN", noise);
  ASSERT_TRUE(move.has_value());
  EXPECT_EQ(move->to, "DISMISSED");
}

TEST(IncidentLifecycleTest, TheDetectorWaitsForSuspectsAndLeavesClosedIncidentsAlone) {
  FindingCounts waiting;
  waiting.findings = 3;
  waiting.suspected = 1;
  EXPECT_FALSE(DetectorMoveFor("OPEN", waiting).has_value());
  FindingCounts fixed;
  fixed.findings = fixed.confirmed = fixed.fixed = 2;
  EXPECT_EQ(DetectorMoveFor("ACKNOWLEDGED", fixed)->to, "FIXED");
  EXPECT_FALSE(DetectorMoveFor("DISMISSED", fixed).has_value());
}

TEST(IncidentLifecycleTest, AFindingTheDetectorDismissedAsTheClockCountsAsConfirmed) {
  v1::Regression f;
  f.set_state(v1::REGRESSION_STATE_DISMISSED);
  EXPECT_TRUE(Confirmed(f));
  f.set_updated_by("alice");
  EXPECT_FALSE(Confirmed(f));
}

}  // namespace
}  // namespace warpwatch::server::incidents
