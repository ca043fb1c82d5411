// UploadRun over a real channel: a `warpwatch-worker run --out` file recorded on an H100
// (tests/fixtures/h100_nightly.json) becomes one run, once, whatever its JSON spacing; what is not
// a RunResult, or too large, is refused naming what is wrong; readers cannot upload.
#include <google/protobuf/util/json_util.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "server/service/result_upload.h"
#include "tests/server/service/result_rpc_test_util.h"

namespace warpwatch::testing {
namespace {

std::string ReadFixture() {
  std::ifstream in(std::string(WARPWATCH_FIXTURES_DIR) + "/h100_nightly.json");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

class ResultUploadRpcTest : public ResultRpcTest {
 protected:
  grpc::Status Upload(const std::string& token, const std::string& json,
                      v1::UploadRunResponse* out) {
    v1::UploadRunRequest request;
    request.set_run_result_json(json);
    return Results()->UploadRun(Context(token).get(), request, out);
  }
  int64_t Count(const std::string& table) {
    return std::stoll(Sql("SELECT count(*) FROM " + table + " WHERE $1 > 0", 1));
  }
};

TEST_F(ResultUploadRpcTest, ARunFileBecomesOneRunOnceWhateverItsSpacing) {
  const std::string json = ReadFixture();
  ASSERT_FALSE(json.empty());
  v1::RunResult parsed;
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(json, &parsed).ok());
  ASSERT_GT(parsed.measurements_size(), 10);

  v1::UploadRunResponse first;
  grpc::Status s = Upload(kSubmitterToken, json, &first);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_TRUE(first.created());
  EXPECT_EQ(first.measurements_stored(), parsed.measurements_size());
  EXPECT_EQ(first.run().job_id(), 0);
  EXPECT_EQ(first.run().state(), v1::JOB_STATE_SUCCEEDED);
  EXPECT_EQ(first.run().environment().device().uuid(), parsed.environment().device().uuid());
  EXPECT_EQ(Sql("SELECT analysis_state FROM run WHERE id = $1", first.run().id()), "PENDING");

  // The same run printed another way (camelCase names, other spacing) is the same content.
  std::string reprinted;
  ASSERT_TRUE(google::protobuf::util::MessageToJsonString(parsed, &reprinted).ok());
  ASSERT_NE(reprinted, json);
  v1::UploadRunResponse second;
  s = Upload(kSubmitterToken, reprinted, &second);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_FALSE(second.created());
  EXPECT_EQ(second.run().id(), first.run().id());
  EXPECT_EQ(Count("run"), 1);
  EXPECT_EQ(Count("measurement"), parsed.measurements_size());

  // Queries see it like any other run.
  v1::QueryMeasurementsRequest query;
  query.set_run_id(first.run().id());
  query.set_page_size(1000);
  v1::QueryMeasurementsResponse measured;
  s = Results()->QueryMeasurements(Context(kReaderToken).get(), query, &measured);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(measured.measurements_size(), std::min(1000, parsed.measurements_size()));
}

TEST_F(ResultUploadRpcTest, AReaderCannotUploadASubmitterCan) {
  v1::UploadRunResponse out;
  grpc::Status s = Upload(kReaderToken, ReadFixture(), &out);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(Count("run"), 0);
}

TEST_F(ResultUploadRpcTest, WhatIsNotARunResultIsRefusedNamingWhy) {
  const std::pair<std::string, std::string> cases[] = {
      {"", "run_result_json: empty"},
      {"{\"measurements\": [", "not a RunResult"},
      {"{\"id\": \"5\", \"state\": \"JOB_STATE_QUEUED\"}", "not a RunResult"},
      {"[1, 2, 3]", "not a RunResult"},
      {"{}", "measurements: none"},
      {"{\"measurements\": [{\"case\": {\"canonical\": \"reduce/tree\"}}]}",
       "environment.device.uuid"},
  };
  for (const auto& [json, why] : cases) {
    v1::UploadRunResponse out;
    grpc::Status s = Upload(kSubmitterToken, json, &out);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << json;
    EXPECT_NE(s.error_message().find(why), std::string::npos) << json << ": " << s.error_message();
  }
  EXPECT_EQ(Count("run"), 0);
}

TEST_F(ResultUploadRpcTest, AnOversizeFileIsRefusedNamingTheLimit) {
  std::string json = ReadFixture();
  json.insert(json.size() - 1, server::kMaxUploadRunBytes - json.size() + 2, ' ');
  ASSERT_GT(json.size(), server::kMaxUploadRunBytes);
  v1::UploadRunResponse out;
  grpc::Status s = Upload(kSubmitterToken, json, &out);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(s.error_message().find("more than the limit of " +
                                   std::to_string(server::kMaxUploadRunBytes)),
            std::string::npos)
      << s.error_message();
  EXPECT_EQ(Count("run"), 0);
}

}  // namespace
}  // namespace warpwatch::testing
