// File: tests/server/store/page_token_test.cc
// Opaque page tokens (server/store/detail/page_token.h): bound to their query's filters, and
// their ids parsed without overflow.
#include "server/store/detail/page_token.h"

#include <gtest/gtest.h>

namespace warpwatch::server::detail {
namespace {

FilterFingerprint Filters(const std::string& state) {
  FilterFingerprint f;
  f.Add("jobs").Add(state);
  return f;
}

TEST(PageTokenTest, RoundTripsItsPositionUnderTheSameFilters) {
  const std::string token = EncodePageToken({"node:7", "a\nb", ""}, Filters("QUEUED"));
  EXPECT_EQ(token.find("node"), std::string::npos);  // opaque
  StatusOr<std::vector<std::string>> position = DecodePageToken(token, Filters("QUEUED"), 3);
  ASSERT_TRUE(position.ok()) << position.status().ToString();
  EXPECT_EQ(*position, (std::vector<std::string>{"node:7", "a\nb", ""}));
}

TEST(PageTokenTest, IsRefusedUnderOtherFilters) {
  const std::string token = EncodePageToken({"42"}, Filters("QUEUED"));
  StatusOr<std::vector<std::string>> position = DecodePageToken(token, Filters("RUNNING"), 1);
  ASSERT_FALSE(position.ok());
  EXPECT_EQ(position.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(position.status().message().find("other filters"), std::string::npos);
}

TEST(PageTokenTest, MalformedTokensAreInvalidArguments) {
  for (const std::string& token :
       {std::string("garbage"), std::string("p1.!!"), std::string("p1."), std::string("ww1.12")}) {
    EXPECT_EQ(DecodePageToken(token, Filters("x"), 1).status().code(), StatusCode::kInvalidArgument)
        << token;
  }
  // A genuine token asked for the wrong number of parts.
  EXPECT_FALSE(DecodePageToken(EncodePageToken({"1", "2"}, Filters("x")), Filters("x"), 1).ok());
}

TEST(PageTokenTest, IdsPastInt64AreRefusedNotWrapped) {
  EXPECT_EQ(*PositiveIdFromPart("9223372036854775807"), INT64_MAX);
  // 2^64 + 2 wraps to 2 in a parser that multiplies and adds without checks.
  EXPECT_EQ(PositiveIdFromPart("18446744073709551618").status().code(),
            StatusCode::kInvalidArgument);
  EXPECT_FALSE(PositiveIdFromPart("9223372036854775808").ok());
  EXPECT_FALSE(PositiveIdFromPart("0").ok());
  EXPECT_FALSE(PositiveIdFromPart("-5").ok());
  EXPECT_FALSE(PositiveIdFromPart("12x").ok());
  EXPECT_FALSE(PositiveIdFromPart("").ok());
}

}  // namespace
}  // namespace warpwatch::server::detail
