// File: tests/server/auth/token_file_test.cc
#include "server/auth/token_file.h"

#include <gtest/gtest.h>

#include "server/auth/role.h"

namespace warpwatch::server::auth {
namespace {

constexpr const char* kToken = "0123456789abcdef";

TEST(TokenFileTest, ParsesTokensSkippingCommentsAndBlankLines) {
  auto table = ParseTokenFile(
      "# tokens\n\n0123456789abcdef reader dashboards\n  fedcba9876543210  admin  ops@host \n",
      "tokens");
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  ASSERT_EQ(table->size(), 2u);
  EXPECT_EQ(table->at("0123456789abcdef").name, "dashboards");
  EXPECT_EQ(table->at("0123456789abcdef").role, Role::kReader);
  EXPECT_EQ(table->at("fedcba9876543210").role, Role::kAdmin);
}

TEST(TokenFileTest, RefusesAnUnknownRoleNamingTheLine) {
  auto table = ParseTokenFile("# x\n0123456789abcdef superuser bob\n", "t.txt");
  ASSERT_FALSE(table.ok());
  EXPECT_EQ(table.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(table.status().message().find("t.txt:2"), std::string::npos);
  EXPECT_NE(table.status().message().find("superuser"), std::string::npos);
}

TEST(TokenFileTest, AnUnknownRoleThatLooksLikeATokenIsNotQuoted) {
  // Fields swapped: the token sits where the role goes and must not reach an error or a log.
  auto table = ParseTokenFile("bob 0123456789abcdefXYZ reader\n", "t.txt");
  ASSERT_FALSE(table.ok());
  EXPECT_EQ(table.status().message().find("0123456789abcdefXYZ"), std::string::npos)
      << table.status().message();
  EXPECT_NE(table.status().message().find("t.txt:1"), std::string::npos);
}

TEST(TokenFileTest, ReadsAnOptionalExpiryInUtc) {
  auto table = ParseTokenFile(
      "0123456789abcdef reader ci expires=2027-01-31T12:30:05Z\nfedcba9876543210 admin ops\n", "t");
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  ASSERT_TRUE(table->at("0123456789abcdef").expires_at.has_value());
  EXPECT_EQ(std::chrono::system_clock::to_time_t(*table->at("0123456789abcdef").expires_at),
            1801398605);  // date -u -d 2027-01-31T12:30:05Z +%s
  EXPECT_FALSE(table->at("fedcba9876543210").expires_at.has_value());
}

TEST(TokenFileTest, RefusesAnExpiryThatIsNotARealUtcTime) {
  for (const char* bad : {"expires=2027-02-30T00:00:00Z", "expires=2027-01-31T00:00:00",
                          "expires=2027-01-31 00:00:00Z", "expires=tomorrow", "until=2027-01-31T00:00:00Z",
                          "expires=2027-01-31T24:00:00Z"}) {
    auto table = ParseTokenFile(std::string(kToken) + " reader ci " + bad + "\n", "t.txt");
    ASSERT_FALSE(table.ok()) << bad;
    EXPECT_EQ(table.status().code(), StatusCode::kInvalidArgument) << bad;
    EXPECT_NE(table.status().message().find("t.txt:1"), std::string::npos) << bad;
    EXPECT_EQ(table.status().message().find(kToken), std::string::npos) << bad;
  }
}

// Found by tests/fuzz token_file (corpus: role_field_holds_a_token.txt): with the columns
// swapped, the secret sits in the role field, and the error went to the server's log quoted.
TEST(TokenFileTest, UnknownRoleErrorDoesNotShowATokenShapedRole) {
  const std::string secret = "9f2c1e7a55d04b8e8c1f3a2b";
  auto table = ParseTokenFile("ci-nightly-runner-01 " + secret + " submitter\n", "t");
  ASSERT_FALSE(table.ok());
  EXPECT_NE(table.status().message().find("t:1: unknown role"), std::string::npos);
  EXPECT_NE(table.status().message().find("not shown"), std::string::npos);
  EXPECT_EQ(table.status().message().find(secret.substr(0, 8)), std::string::npos)
      << table.status().message();
}

TEST(TokenFileTest, RefusesAShortToken) {
  auto table = ParseTokenFile("short reader bob\n", "t");
  ASSERT_FALSE(table.ok());
  EXPECT_NE(table.status().message().find("at least 16"), std::string::npos);
}

TEST(TokenFileTest, RefusesAWrongFieldCount) {
  EXPECT_FALSE(ParseTokenFile(std::string(kToken) + " reader\n", "t").ok());
  EXPECT_FALSE(ParseTokenFile(std::string(kToken) + " reader bob extra\n", "t").ok());
}

TEST(TokenFileTest, RefusesADuplicateToken) {
  auto table = ParseTokenFile(std::string(kToken) + " reader a\n" + kToken + " admin b\n", "t");
  ASSERT_FALSE(table.ok());
  EXPECT_NE(table.status().message().find("t:2"), std::string::npos);
}

TEST(TokenFileTest, RefusesAFileWithoutTokens) {
  EXPECT_FALSE(ParseTokenFile("# nothing here\n", "t").ok());
}

TEST(TokenFileTest, RefusesABadName) {
  EXPECT_FALSE(ParseTokenFile(std::string(kToken) + " reader bo$b\n", "t").ok());
}

TEST(TokenFileTest, AMissingFileIsNotFound) {
  auto table = LoadTokenFile("/nonexistent/warpwatch-tokens");
  ASSERT_FALSE(table.ok());
  EXPECT_EQ(table.status().code(), StatusCode::kNotFound);
}

TEST(RoleTest, UnlistedMethodsAreAdminOnly) {
  EXPECT_FALSE(RoleAllows(Role::kSubmitter, "/warpwatch.v1.JobService/DeleteEverything"));
  EXPECT_TRUE(RoleAllows(Role::kAdmin, "/warpwatch.v1.JobService/DeleteEverything"));
}

TEST(RoleTest, ParsesEveryRoleName) {
  for (Role role : {Role::kReader, Role::kSubmitter, Role::kWorker, Role::kAdmin}) {
    EXPECT_EQ(ParseRole(RoleName(role)), role);
  }
  EXPECT_FALSE(ParseRole("root").has_value());
}

}  // namespace
}  // namespace warpwatch::server::auth
