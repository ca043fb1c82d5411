// File: tests/cli/commands/flag_parsing_test.cc
#include "cli/commands/detail/flag_parsing.h"

#include <gtest/gtest.h>

#include "cli/client/exit_codes.h"

namespace warpwatch::cli {
namespace {

TEST(ParseAxisTest, ReadsAFamilyPrefixedAxis) {
  auto axis = detail::ParseAxis("reduce:n=1024,2048");
  ASSERT_TRUE(axis.ok()) << axis.status().ToString();
  EXPECT_EQ(axis->family(), "reduce");
  EXPECT_EQ(axis->axis(), "n");
  ASSERT_EQ(axis->values_size(), 2);
  EXPECT_EQ(axis->values(1), 2048);
}

TEST(ParseAxisTest, ReadsAnAxisForEveryFamily) {
  auto axis = detail::ParseAxis("block_size=128");
  ASSERT_TRUE(axis.ok());
  EXPECT_TRUE(axis->family().empty());
  EXPECT_EQ(axis->values(0), 128);
}

TEST(ParseAxisTest, RefusesMalformedText) {
  EXPECT_FALSE(detail::ParseAxis("block_size").ok());
  EXPECT_FALSE(detail::ParseAxis("block_size=").ok());
  EXPECT_FALSE(detail::ParseAxis("block_size=12,,4").ok());
  EXPECT_FALSE(detail::ParseAxis("block_size=1k").ok());
  EXPECT_FALSE(detail::ParseAxis(":n=1").ok());
  EXPECT_FALSE(detail::ParseAxis("reduce:=1").ok());
}

TEST(ParseKeyValueTest, SplitsAtTheFirstEquals) {
  auto pair = detail::ParseKeyValue("flags=-O3=x", "--label");
  ASSERT_TRUE(pair.ok());
  EXPECT_EQ(pair->first, "flags");
  EXPECT_EQ(pair->second, "-O3=x");
  EXPECT_FALSE(detail::ParseKeyValue("=v", "--label").ok());
  EXPECT_FALSE(detail::ParseKeyValue("novalue", "--label").ok());
}

TEST(ParseNoiseTest, AcceptsFractionsAndPercentages) {
  EXPECT_DOUBLE_EQ(*detail::ParseNoise("0.005"), 0.005);
  EXPECT_DOUBLE_EQ(*detail::ParseNoise("0.5%"), 0.005);
  EXPECT_FALSE(detail::ParseNoise("half").ok());
  EXPECT_FALSE(detail::ParseNoise("%").ok());
}

TEST(ParseJobStateTest, AcceptsShortAndFullNamesInAnyCase) {
  EXPECT_EQ(*detail::ParseJobState("queued"), v1::JOB_STATE_QUEUED);
  EXPECT_EQ(*detail::ParseJobState("JOB_STATE_CANCELLED"), v1::JOB_STATE_CANCELLED);
  EXPECT_FALSE(detail::ParseJobState("unspecified").ok());
  EXPECT_FALSE(detail::ParseJobState("paused").ok());
}

TEST(ExitCodeTest, MapsStatusCodesToDocumentedExitCodes) {
  EXPECT_EQ(ExitCodeFor(grpc::StatusCode::OK), 0);
  EXPECT_EQ(ExitCodeFor(grpc::StatusCode::NOT_FOUND), 3);
  EXPECT_EQ(ExitCodeFor(grpc::StatusCode::INVALID_ARGUMENT), 4);
  EXPECT_EQ(ExitCodeFor(grpc::StatusCode::FAILED_PRECONDITION), 4);
  EXPECT_EQ(ExitCodeFor(grpc::StatusCode::UNAVAILABLE), 5);
  EXPECT_EQ(ExitCodeFor(grpc::StatusCode::UNAUTHENTICATED), 6);
  EXPECT_EQ(ExitCodeFor(grpc::StatusCode::PERMISSION_DENIED), 6);
  EXPECT_EQ(ExitCodeFor(grpc::StatusCode::INTERNAL), 1);
}

}  // namespace
}  // namespace warpwatch::cli
