// ResultService pinned baselines over real channels, with two credentials: a reader lists but
// cannot pin or unpin, a submitter can, and pinned_by is the token's principal; bad input answers
// NOT_FOUND, FAILED_PRECONDITION or INVALID_ARGUMENT naming what is wrong.
#include <gtest/gtest.h>

#include "tests/server/service/result_rpc_test_util.h"

namespace warpwatch::testing {
namespace {

const std::string kSeries = std::string("reduce/tree?n=1024@") + kModel;

class ResultBaselineRpcTest : public ResultRpcTest {
 protected:
  void SetUp() override {
    ResultRpcTest::SetUp();
    if (HasFatalFailure()) return;
    run_ = MakeRun({ResultPoint("tree", 1e-3)});
    ASSERT_GT(run_, 0);
  }

  grpc::Status Pin(const std::string& token, const std::vector<int64_t>& runs,
                   const std::string& series, v1::BaselinePin* out) {
    v1::PinBaselineRequest request;
    for (int64_t id : runs) request.add_run_ids(id);
    request.set_series_id(series);
    request.set_note("release 1.0");
    return Results()->PinBaseline(Context(token).get(), request, out);
  }

  int64_t run_ = 0;
};

TEST_F(ResultBaselineRpcTest, AReaderListsButCannotPinASubmitterCan) {
  v1::BaselinePin pin;
  grpc::Status s = Pin(kReaderToken, {run_}, kSeries, &pin);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(Sql("SELECT count(*) FROM baseline_pin WHERE $1 > 0", 1), "0");

  s = Pin(kSubmitterToken, {run_}, kSeries, &pin);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(pin.pinned_by(), "ci");  // the submitter token's principal
  EXPECT_EQ(pin.series_id(), kSeries);
  ASSERT_EQ(pin.run_ids_size(), 1);
  EXPECT_EQ(pin.run_ids(0), run_);

  v1::ListBaselinesRequest list;
  list.set_series_id(kSeries);
  v1::ListBaselinesResponse listed;
  s = Results()->ListBaselines(Context(kReaderToken).get(), list, &listed);
  ASSERT_TRUE(s.ok()) << s.error_message();
  ASSERT_EQ(listed.pins_size(), 1);
  EXPECT_EQ(listed.pins(0).id(), pin.id());
  EXPECT_EQ(listed.pins(0).note(), "release 1.0");

  v1::UnpinBaselineRequest unpin;
  unpin.set_id(pin.id());
  v1::BaselinePin removed;
  s = Results()->UnpinBaseline(Context(kReaderToken).get(), unpin, &removed);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  s = Results()->UnpinBaseline(Context(kSubmitterToken).get(), unpin, &removed);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(removed.id(), pin.id());
  s = Results()->UnpinBaseline(Context(kSubmitterToken).get(), unpin, &removed);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::NOT_FOUND);
}

TEST_F(ResultBaselineRpcTest, AnUnknownRunIsNotFound) {
  v1::BaselinePin pin;
  grpc::Status s = Pin(kSubmitterToken, {run_, run_ + 999}, "", &pin);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_NE(s.error_message().find("run " + std::to_string(run_ + 999)), std::string::npos)
      << s.error_message();
}

TEST_F(ResultBaselineRpcTest, ASeriesTheRunDidNotMeasureIsNamed) {
  const std::string other = std::string("reduce/naive?n=1024@") + kModel;
  v1::BaselinePin pin;
  grpc::Status s = Pin(kSubmitterToken, {run_}, other, &pin);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_NE(s.error_message().find(other), std::string::npos) << s.error_message();
}

TEST_F(ResultBaselineRpcTest, AnUnverifiedOrFailedRunIsRefusedWithAClearMessage) {
  v1::Measurement unverified = ResultPoint("tree", 1e-3);
  unverified.set_verified(false);
  const int64_t bad = MakeRun({unverified});
  v1::BaselinePin pin;
  grpc::Status s = Pin(kSubmitterToken, {bad}, kSeries, &pin);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_NE(s.error_message().find("unverified"), std::string::npos) << s.error_message();

  Submit();
  v1::AcquireJobResponse lease = Acquire(worker_, "GPU-1", 5);
  ASSERT_TRUE(lease.has_job());
  v1::Job finished;
  ASSERT_TRUE(
      Finish(worker_, lease.job().id(), lease.run_id(), v1::JOB_OUTCOME_FAILED, &finished).ok());
  s = Pin(kSubmitterToken, {lease.run_id()}, "", &pin);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_NE(s.error_message().find("is FAILED"), std::string::npos) << s.error_message();
}

TEST_F(ResultBaselineRpcTest, MalformedRequestsAreInvalidArguments) {
  v1::BaselinePin pin;
  EXPECT_EQ(Pin(kSubmitterToken, {}, "", &pin).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(Pin(kSubmitterToken, {-1}, "", &pin).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(Pin(kSubmitterToken, {run_}, "no-model", &pin).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  v1::ListBaselinesRequest list;
  list.set_page_size(-1);
  v1::ListBaselinesResponse listed;
  EXPECT_EQ(Results()->ListBaselines(Context(kReaderToken).get(), list, &listed).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
}

}  // namespace
}  // namespace warpwatch::testing
