// File: tests/worker/daemon/serve_options_test.cc
#include "worker/daemon/serve_options.h"

#include <gtest/gtest.h>

#include <CLI/CLI.hpp>

namespace warpwatch::worker {
namespace {

TEST(ParseGpuList, AllSelectsEveryDevice) {
  auto gpus = ParseGpuList("all", 3);
  ASSERT_TRUE(gpus.ok());
  EXPECT_EQ(*gpus, (std::vector<int>{0, 1, 2}));
}

TEST(ParseGpuList, OrdinalsAreKeptInOrder) {
  auto gpus = ParseGpuList("2,0", 3);
  ASSERT_TRUE(gpus.ok());
  EXPECT_EQ(*gpus, (std::vector<int>{2, 0}));
}

TEST(ParseGpuList, RejectsMissingDuplicateAndMalformedOrdinals) {
  EXPECT_NE(ParseGpuList("3", 2).status().message().find("does not exist"), std::string::npos);
  EXPECT_NE(ParseGpuList("0,0", 2).status().message().find("twice"), std::string::npos);
  EXPECT_EQ(ParseGpuList("a", 2).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(ParseGpuList("1x", 2).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(ParseGpuList("", 2).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(ParseGpuList("all", 0)->size(), 0u);
}

TEST(ParseLabels, ParsesPairsAndRejectsBadOnes) {
  auto labels = ParseLabels("rack=r1,zone=");
  ASSERT_TRUE(labels.ok());
  EXPECT_EQ(labels->at("rack"), "r1");
  EXPECT_EQ(labels->at("zone"), "");
  EXPECT_TRUE(ParseLabels("")->empty());
  EXPECT_EQ(ParseLabels("novalue").status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(ParseLabels("=v").status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(ParseLabels("a=1,a=2").status().message().find("twice"), std::string::npos);
}

TEST(AddServeCommand, FillsOptionsFromFlags) {
  CLI::App app;
  ServeOptions options;
  CLI::App* serve = AddServeCommand(app, &options);
  app.parse("serve --server h:1 --token t --gpus 1 --labels a=b --metrics-listen :9999 "
            "--grace-seconds 5",
            false);
  EXPECT_TRUE(*serve);
  EXPECT_EQ(options.client.server, "h:1");
  EXPECT_EQ(options.client.token, "t");
  EXPECT_EQ(options.gpus, "1");
  EXPECT_EQ(options.labels, "a=b");
  EXPECT_EQ(options.metrics_listen, ":9999");
  EXPECT_DOUBLE_EQ(options.daemon.grace_seconds, 5);
}

TEST(AddServeCommand, RequiresTheServer) {
  CLI::App app;
  ServeOptions options;
  AddServeCommand(app, &options);
  EXPECT_THROW(app.parse("serve", false), CLI::RequiredError);
}

}  // namespace
}  // namespace warpwatch::worker
