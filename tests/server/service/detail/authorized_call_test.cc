// File: tests/server/service/detail/authorized_call_test.cc
// What clients see of a failed call: the caller's own mistakes as they are, server and database
// trouble as a fixed message per code with a request id (issue 23).
#include "server/service/detail/authorized_call.h"

#include <gtest/gtest.h>

#include <string>

namespace warpwatch::server::detail {
namespace {

constexpr const char* kLibpqText =
    "GetJob: database unreachable: connection to server at \"10.1.2.3\", port 5432 failed: "
    "FATAL: password authentication failed for user \"warpwatch\"";

TEST(ClientStatusTest, DatabaseTroubleBecomesAFixedMessageWithItsCodeAndRequestId) {
  for (StatusCode code :
       {StatusCode::kUnavailable, StatusCode::kAborted, StatusCode::kDeadlineExceeded,
        StatusCode::kInternal, StatusCode::kUnknown, StatusCode::kDataLoss}) {
    const Status client = ClientStatus(Status(code, kLibpqText), "00112233aabbccdd");
    EXPECT_EQ(client.code(), code);
    EXPECT_NE(client.message().find("(request id 00112233aabbccdd)"), std::string::npos)
        << client.message();
    for (const char* detail : {"10.1.2.3", "5432", "warpwatch", "password", "GetJob"}) {
      EXPECT_EQ(client.message().find(detail), std::string::npos)
          << StatusCodeName(code) << ": " << client.message();
    }
  }
}

TEST(ClientStatusTest, TheCallersOwnMistakesKeepTheirMessage) {
  for (StatusCode code : {StatusCode::kInvalidArgument, StatusCode::kNotFound,
                          StatusCode::kFailedPrecondition, StatusCode::kResourceExhausted,
                          StatusCode::kPermissionDenied, StatusCode::kUnauthenticated}) {
    const Status status(code, "spec.families: empty");
    EXPECT_EQ(ClientStatus(status, "00112233aabbccdd").message(), status.message())
        << StatusCodeName(code);
  }
}

}  // namespace
}  // namespace warpwatch::server::detail
