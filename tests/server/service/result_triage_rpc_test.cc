// ResultService regression listing and triage over real channels, always with two credentials:
// a reader reads but cannot triage, a submitter triages, and the identity recorded is the token's
// principal.
#include <gtest/gtest.h>

#include "tests/server/service/result_rpc_test_util.h"

namespace warpwatch::testing {
namespace {

class ResultTriageRpcTest : public ResultRpcTest {
 protected:
  void SetUp() override {
    ResultRpcTest::SetUp();
    if (HasFatalFailure()) return;
    run_ = MakeRun({ResultPoint("tree", 1e-3)});
    ASSERT_GT(run_, 0);
  }

  grpc::Status Update(const std::string& token, int64_t id, v1::RegressionState state,
                      const std::string& note, v1::Regression* out) {
    v1::UpdateRegressionRequest request;
    request.set_id(id);
    request.set_state(state);
    request.set_note(note);
    return Results()->UpdateRegression(Context(token).get(), request, out);
  }

  int64_t run_ = 0;
};

TEST_F(ResultTriageRpcTest, AReaderListsButCannotTriageASubmitterCan) {
  const int64_t id = InsertRegression(run_, "OPEN");
  v1::ListRegressionsRequest list;
  list.add_states(v1::REGRESSION_STATE_OPEN);
  v1::ListRegressionsResponse listed;
  grpc::Status s = Results()->ListRegressions(Context(kReaderToken).get(), list, &listed);
  ASSERT_TRUE(s.ok()) << s.error_message();
  ASSERT_EQ(listed.regressions_size(), 1);
  EXPECT_EQ(listed.regressions(0).id(), id);
  EXPECT_EQ(listed.regressions(0).case_().params().at("n"), 1024);

  v1::Regression out;
  s = Update(kReaderToken, id, v1::REGRESSION_STATE_ACKNOWLEDGED, "mine", &out);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(Sql("SELECT state FROM regression WHERE id = $1", id), "OPEN");

  s = Update(kSubmitterToken, id, v1::REGRESSION_STATE_ACKNOWLEDGED, "on it", &out);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(out.state(), v1::REGRESSION_STATE_ACKNOWLEDGED);
  EXPECT_EQ(out.updated_by(), "ci");  // the submitter token's principal
  EXPECT_EQ(out.note(), "on it");
  EXPECT_EQ(Sql("SELECT actor || '|' || from_state || '|' || to_state || '|' || note"
                " FROM regression_event WHERE regression_id = $1",
                id),
            "ci|OPEN|ACKNOWLEDGED|on it");
}

TEST_F(ResultTriageRpcTest, ClosedRegressionsCannotBeTriagedAndTheMessageNamesTheStates) {
  const int64_t id = InsertRegression(run_, "OPEN");
  v1::Regression out;
  ASSERT_TRUE(Update(kSubmitterToken, id, v1::REGRESSION_STATE_FIXED, "", &out).ok());
  grpc::Status s = Update(kSubmitterToken, id, v1::REGRESSION_STATE_ACKNOWLEDGED, "", &out);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_NE(s.error_message().find("FIXED -> ACKNOWLEDGED"), std::string::npos)
      << s.error_message();

  const int64_t noise = InsertRegression(run_, "NOISE", "warp_shuffle");
  s = Update(kSubmitterToken, noise, v1::REGRESSION_STATE_DISMISSED, "", &out);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_NE(s.error_message().find("NOISE"), std::string::npos) << s.error_message();
}

TEST_F(ResultTriageRpcTest, BadTriageRequestsNameWhatIsWrong) {
  v1::Regression out;
  grpc::Status s = Update(kSubmitterToken, 4242, v1::REGRESSION_STATE_FIXED, "", &out);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_NE(s.error_message().find("regression 4242"), std::string::npos);
  s = Update(kSubmitterToken, 0, v1::REGRESSION_STATE_FIXED, "", &out);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(s.error_message().find("id"), std::string::npos);
  const int64_t id = InsertRegression(run_, "OPEN");
  s = Update(kSubmitterToken, id, v1::REGRESSION_STATE_UNSPECIFIED, "", &out);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(s.error_message().find("state"), std::string::npos);
  s = Update(kSubmitterToken, id, v1::REGRESSION_STATE_FIXED, std::string(5000, 'x'), &out);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(s.error_message().find("note"), std::string::npos);
}

TEST_F(ResultTriageRpcTest, AcceptingANewLevelIsTriageForSubmittersNotReaders) {
  const int64_t id = InsertRegression(run_, "OPEN");
  v1::Regression out;
  grpc::Status s = Update(kReaderToken, id, v1::REGRESSION_STATE_ACCEPTED, "new toolchain", &out);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(Sql("SELECT state FROM regression WHERE id = $1", id), "OPEN");
  s = Update(kSubmitterToken, id, v1::REGRESSION_STATE_ACCEPTED, "new toolchain", &out);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(out.state(), v1::REGRESSION_STATE_ACCEPTED);
  EXPECT_EQ(out.updated_by(), "ci");
  EXPECT_EQ(Sql("SELECT actor || '|' || from_state || '|' || to_state FROM regression_event"
                " WHERE regression_id = $1",
                id),
            "ci|OPEN|ACCEPTED");
}

TEST_F(ResultTriageRpcTest, OnlyAnOpenFindingsLevelCanBeAccepted) {
  v1::Regression out;
  grpc::Status s = Update(kSubmitterToken, 4242, v1::REGRESSION_STATE_ACCEPTED, "", &out);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::NOT_FOUND);
  const int64_t fixed = InsertRegression(run_, "FIXED");
  s = Update(kSubmitterToken, fixed, v1::REGRESSION_STATE_ACCEPTED, "", &out);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_NE(s.error_message().find("FIXED -> ACCEPTED"), std::string::npos) << s.error_message();
  const int64_t suspected = InsertRegression(run_, "SUSPECTED", "warp_shuffle");
  s = Update(kSubmitterToken, suspected, v1::REGRESSION_STATE_ACCEPTED, "", &out);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_NE(s.error_message().find("SUSPECTED -> ACCEPTED"), std::string::npos)
      << s.error_message();
}

}  // namespace
}  // namespace warpwatch::testing
