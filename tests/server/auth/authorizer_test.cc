// File: tests/server/auth/authorizer_test.cc
// Authorizer on its own (no server): expiry on a fake clock, malformed authorization headers,
// and what its errors may say.
#include "server/auth/authorizer.h"

#include <gtest/gtest.h>

#include <string>

namespace warpwatch::server::auth {
namespace {

using std::chrono::seconds;
using TimePoint = std::chrono::system_clock::time_point;

constexpr const char* kMethod = "/warpwatch.v1.JobService/GetJob";
constexpr const char* kReaderToken = "reader-token-0123456789";
constexpr const char* kCiToken = "ci-token-0123456789abcdef";

class AuthorizerTest : public ::testing::Test {
 protected:
  AuthorizerTest()
      : expiry_(std::chrono::system_clock::from_time_t(1801398605)),
        authorizer_(Tokens(), [this] { return now_; }) {}

  TokenTable Tokens() const {
    TokenTable tokens;
    tokens[kReaderToken] = Principal{"dashboards", Role::kReader, std::nullopt};
    tokens[kCiToken] = Principal{"ci", Role::kSubmitter, expiry_};
    return tokens;
  }

  const TimePoint expiry_;
  TimePoint now_ = expiry_ - seconds(1);
  Authorizer authorizer_;
};

TEST_F(AuthorizerTest, ATokenIsAcceptedUntilTheSecondItExpires) {
  auto before = authorizer_.Authorize(std::string("Bearer ") + kCiToken, kMethod);
  ASSERT_TRUE(before.ok()) << before.status().ToString();
  EXPECT_EQ(before->name, "ci");

  now_ = expiry_;
  auto at = authorizer_.Authorize(std::string("Bearer ") + kCiToken, kMethod);
  ASSERT_FALSE(at.ok());
  EXPECT_EQ(at.status().code(), StatusCode::kUnauthenticated);
  EXPECT_NE(at.status().message().find("\"ci\" expired at 2027-01-31T12:30:05Z"), std::string::npos)
      << at.status().message();
  EXPECT_EQ(at.status().message().find(kCiToken), std::string::npos);
}

TEST_F(AuthorizerTest, AnExpiredTokenDoesNotAffectOtherTokens) {
  now_ = expiry_ + seconds(3600);
  EXPECT_TRUE(authorizer_.Authorize(std::string("Bearer ") + kReaderToken, kMethod).ok());
}

TEST_F(AuthorizerTest, MalformedHeadersAreUnauthenticatedAndNeverEchoed) {
  const std::string long_token(64 * 1024, 'x');
  // Control bytes, invalid UTF-8 and a NUL inside the header.
  constexpr char kBinary[] = "Bearer \x01\x02\xff\xfe\0 token";
  const std::string binary(kBinary, sizeof(kBinary) - 1);
  for (const std::string& header :
       {std::string(), std::string("Bearer"), std::string("Bearer    "),
        std::string("Basic ") + kReaderToken, std::string(kReaderToken),
        std::string("Bearer ") + kReaderToken + "x", std::string("Bearer ") + long_token, binary,
        std::string("Bearer ") + kReaderToken + " " + kCiToken}) {
    auto principal = authorizer_.Authorize(header, kMethod);
    ASSERT_FALSE(principal.ok()) << header.substr(0, 40);
    EXPECT_EQ(principal.status().code(), StatusCode::kUnauthenticated) << header.substr(0, 40);
    EXPECT_EQ(principal.status().message().find("token-0123456789"), std::string::npos);
    EXPECT_EQ(principal.status().message().find("xxxxxxxx"), std::string::npos);
  }
}

TEST_F(AuthorizerTest, TheSchemeIsCaseInsensitiveAndSurroundingSpacesAreIgnored) {
  EXPECT_TRUE(authorizer_.Authorize(std::string("bEaReR   ") + kReaderToken + "  ", kMethod).ok());
}

TEST(AuthorizerManyTokensTest, EachOfAThousandTokensFindsItsOwnPrincipal) {
  TokenTable tokens;
  for (int i = 0; i < 1000; ++i) {
    tokens["worker-token-" + std::to_string(100000 + i)] =
        Principal{"w" + std::to_string(i), Role::kWorker, std::nullopt};
  }
  Authorizer authorizer(tokens);
  for (int i = 0; i < 1000; i += 37) {
    auto principal = authorizer.Authorize("Bearer worker-token-" + std::to_string(100000 + i),
                                          "/warpwatch.v1.WorkerService/Heartbeat");
    ASSERT_TRUE(principal.ok()) << i;
    EXPECT_EQ(principal->name, "w" + std::to_string(i));
  }
}

}  // namespace
}  // namespace warpwatch::server::auth
