// File: tests/worker/daemon/serve_options_test.cc
#include "worker/daemon/serve_options.h"

#include <gtest/gtest.h>

#include <fstream>

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
  const std::string token_file = ::testing::TempDir() + "/serve_options_token";
  std::ofstream(token_file) << "t\n";
  app.parse("serve --server h:1 --token-file " + token_file +
                " --gpus 1 --labels a=b --metrics-listen :9999 --grace-seconds 5",
            false);
  EXPECT_TRUE(*serve);
  EXPECT_EQ(options.client.server, "h:1");
  EXPECT_EQ(options.client.token, "t");
  EXPECT_EQ(options.gpus, "1");
  EXPECT_EQ(options.labels, "a=b");
  EXPECT_EQ(options.metrics_listen, ":9999");
  EXPECT_DOUBLE_EQ(options.daemon.grace_seconds, 5);
}

// Issue 14.5: a token on the command line is readable by every user of the host (ps).
TEST(AddServeCommand, RefusesATokenOnTheCommandLineNamingTheAlternatives) {
  CLI::App app;
  ServeOptions options;
  AddServeCommand(app, &options);
  try {
    app.parse("serve --server h:1 --token secret", false);
    FAIL() << "--token was accepted";
  } catch (const CLI::ValidationError& e) {
    EXPECT_NE(std::string(e.what()).find("--token-file"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(options.client.token.empty());
}

// Test only: every job's child runs the contention copy (worker/contention/contention_options.h).
TEST(AddServeCommand, TakesTheTestContentionFlags) {
  CLI::App app;
  ServeOptions options;
  AddServeCommand(app, &options);
  EXPECT_FALSE(options.test_contention.enabled());
  app.parse(
      "serve --server h:1 --test-contention-gib=2 --test-contention-duty=0.25 "
      "--test-contention-engine=copy",
      false);
  ASSERT_TRUE(options.test_contention.enabled());
  EXPECT_DOUBLE_EQ(*options.test_contention.gib, 2);
  EXPECT_DOUBLE_EQ(options.test_contention.effective_duty(), 0.25);
  EXPECT_EQ(options.test_contention.effective_engine(), ContentionEngine::kCopy);
}

TEST(AddServeCommand, RequiresTheServer) {
  CLI::App app;
  ServeOptions options;
  AddServeCommand(app, &options);
  EXPECT_THROW(app.parse("serve", false), CLI::RequiredError);
}

}  // namespace
}  // namespace warpwatch::worker
