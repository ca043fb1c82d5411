// File: tests/server/service/detail/raw_unary_call_test.cc
// The parsing and serializing halves of a raw unary call (server/service/detail/raw_unary_call.h).
#include "server/service/detail/raw_unary_call.h"

#include <gtest/gtest.h>

#include <string>

#include "warpwatch/v1/result.pb.h"

namespace warpwatch::server::detail {
namespace {

grpc::ByteBuffer Bytes(const std::string& bytes) {
  grpc::Slice slice(bytes);
  return grpc::ByteBuffer(&slice, 1);
}

TEST(RawUnaryCallTest, ARequestRoundTripsThroughItsBytes) {
  v1::UploadRunRequest request;
  request.set_run_result_json("{\"measurements\": []}");
  v1::UploadRunRequest parsed;
  ASSERT_TRUE(ParseRawRequest(Bytes(request.SerializeAsString()), &parsed).ok());
  EXPECT_EQ(parsed.run_result_json(), request.run_result_json());

  v1::UploadRunResponse response;
  response.set_created(true);
  response.set_measurements_stored(42);
  grpc::ByteBuffer out;
  ASSERT_TRUE(SerializeRawResponse(response, &out).ok());
  v1::UploadRunResponse back;
  ASSERT_TRUE(ParseRawRequest(out, &back).ok());
  EXPECT_EQ(back.measurements_stored(), 42);
}

TEST(RawUnaryCallTest, BytesThatAreNotTheMessageAreRefusedNamingItsType) {
  v1::UploadRunRequest parsed;
  // Field 1 (a string) claiming 100 bytes, with 1 following.
  const Status status = ParseRawRequest(Bytes(std::string("\x0a\x64x", 3)), &parsed);
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find("warpwatch.v1.UploadRunRequest"), std::string::npos)
      << status.message();
}

}  // namespace
}  // namespace warpwatch::server::detail
