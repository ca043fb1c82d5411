// Tests of the test-only contention flags: parsing, validation, the child's argv and the labels.
#include "worker/contention/contention_options.h"

#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <cmath>
#include <limits>

#include "worker/contention/contention_flags.h"

namespace warpwatch::worker {
namespace {

ContentionOptions Parse(const std::string& args) {
  CLI::App app;
  ContentionOptions o;
  AddContentionFlags(app, &o);
  app.parse(args, false);
  return o;
}

ContentionOptions With(std::optional<double> gib, std::optional<double> duty) {
  ContentionOptions o;
  o.gib = gib;
  o.duty = duty;
  return o;
}

TEST(ContentionFlags, AbsentFlagsLeaveContentionOff) {
  ContentionOptions o = Parse("");
  EXPECT_FALSE(o.enabled());
  EXPECT_TRUE(ValidateContentionOptions(o).ok());
  EXPECT_TRUE(ContentionChildArgs(o).empty());
  EXPECT_TRUE(ContentionLabels(o).empty());
}

TEST(ContentionFlags, ParseIntoTheOptions) {
  ContentionOptions o = Parse("--test-contention-gib=1.5 --test-contention-duty 0.5");
  ASSERT_TRUE(o.enabled());
  EXPECT_DOUBLE_EQ(*o.gib, 1.5);
  EXPECT_DOUBLE_EQ(o.effective_duty(), 0.5);
  EXPECT_EQ(o.buffer_bytes(), size_t{3} << 29);
  EXPECT_TRUE(ValidateContentionOptions(o).ok());
}

TEST(ContentionFlags, DutyDefaultsToBackToBack) {
  ContentionOptions o = Parse("--test-contention-gib=1");
  EXPECT_FALSE(o.duty.has_value());
  EXPECT_DOUBLE_EQ(o.effective_duty(), 1.0);
}

TEST(ContentionFlags, EngineDefaultsToTheCopyKernel) {
  ContentionOptions o = Parse("--test-contention-gib=1");
  EXPECT_FALSE(o.engine.has_value());
  EXPECT_EQ(o.effective_engine(), ContentionEngine::kKernel);
}

TEST(ContentionFlags, EngineParsesKernelAndCopy) {
  EXPECT_EQ(Parse("--test-contention-gib=1 --test-contention-engine=copy").effective_engine(),
            ContentionEngine::kCopy);
  ContentionOptions kernel = Parse("--test-contention-gib=1 --test-contention-engine kernel");
  ASSERT_TRUE(kernel.engine.has_value());
  EXPECT_EQ(*kernel.engine, ContentionEngine::kKernel);
}

TEST(ContentionFlags, AnUnknownEngineIsAParseErrorNamingTheFlagAndTheChoices) {
  for (const std::string args : {"--test-contention-engine=dma", "--test-contention-engine=Copy",
                                 "--test-contention-engine=copy,kernel"}) {
    try {
      Parse("--test-contention-gib=1 " + args);
      ADD_FAILURE() << args << " was accepted";
    } catch (const CLI::ParseError& e) {
      EXPECT_NE(std::string(e.what()).find("--test-contention-engine"), std::string::npos)
          << e.what();
      EXPECT_NE(std::string(e.what()).find("kernel or copy"), std::string::npos) << e.what();
    }
  }
}

TEST(ContentionEngineName, ParsesBackToTheSameEngine) {
  for (ContentionEngine e : {ContentionEngine::kKernel, ContentionEngine::kCopy}) {
    std::optional<ContentionEngine> back = ParseContentionEngine(ContentionEngineName(e));
    ASSERT_TRUE(back.has_value()) << ContentionEngineName(e);
    EXPECT_EQ(*back, e);
  }
  EXPECT_EQ(ContentionEngineName(ContentionEngine::kCopy), "copy");
  EXPECT_FALSE(ParseContentionEngine("copy ").has_value());
}

TEST(ContentionFlags, ANonNumberIsAParseErrorNamingTheFlag) {
  for (const std::string args :
       {"--test-contention-gib=lots", "--test-contention-duty=half", "--test-contention-gib=1x"}) {
    try {
      Parse(args);
      ADD_FAILURE() << args << " was accepted";
    } catch (const CLI::ParseError& e) {
      const std::string flag = args.substr(0, args.find('='));
      EXPECT_NE(std::string(e.what()).find(flag), std::string::npos) << e.what();
    }
  }
}

// They slow the GPU on purpose: an operator reading --help must not find them.
TEST(ContentionFlags, AreHiddenFromHelp) {
  CLI::App app;
  ContentionOptions o;
  AddContentionFlags(app, &o);
  EXPECT_EQ(app.help().find("contention"), std::string::npos) << app.help();
}

TEST(ValidateContentionOptions, RefusesSizesOutsideTheRangeNamingTheFlag) {
  for (double gib : {0.0, -1.0, 0.1, 65.0, std::nan(""), std::numeric_limits<double>::infinity()}) {
    Status s = ValidateContentionOptions(With(gib, std::nullopt));
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << gib;
    EXPECT_NE(s.message().find("--test-contention-gib"), std::string::npos) << s.message();
  }
  EXPECT_TRUE(ValidateContentionOptions(With(kMinContentionGib, std::nullopt)).ok());
  EXPECT_TRUE(ValidateContentionOptions(With(kMaxContentionGib, std::nullopt)).ok());
}

TEST(ValidateContentionOptions, RefusesDutiesOutsideTheRangeNamingTheFlag) {
  for (double duty : {0.0, 0.01, -0.5, 1.01, std::nan("")}) {
    Status s = ValidateContentionOptions(With(1.0, duty));
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << duty;
    EXPECT_NE(s.message().find("--test-contention-duty"), std::string::npos) << s.message();
  }
  EXPECT_TRUE(ValidateContentionOptions(With(1.0, 1.0)).ok());
  EXPECT_TRUE(ValidateContentionOptions(With(1.0, kMinContentionDuty)).ok());
}

TEST(ValidateContentionOptions, RefusesADutyWithoutASize) {
  Status s = ValidateContentionOptions(With(std::nullopt, 0.5));
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("needs --test-contention-gib"), std::string::npos) << s.message();
}

TEST(ValidateContentionOptions, RefusesAnEngineWithoutASize) {
  ContentionOptions o;
  o.engine = ContentionEngine::kCopy;
  Status s = ValidateContentionOptions(o);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("--test-contention-engine needs --test-contention-gib"),
            std::string::npos)
      << s.message();
}

// The child parses what the parent passes: the values arrive exactly.
TEST(ContentionChildArgs, ParseBackToTheSameOptions) {
  ContentionOptions o = With(0.3, 0.7);
  o.engine = ContentionEngine::kCopy;
  std::vector<std::string> args = ContentionChildArgs(o);
  ASSERT_EQ(args.size(), 3u);
  EXPECT_EQ(args[0], "--test-contention-gib=0.3");
  EXPECT_EQ(args[1], "--test-contention-duty=0.7");
  EXPECT_EQ(args[2], "--test-contention-engine=copy");
  ContentionOptions back = Parse(args[0] + " " + args[1] + " " + args[2]);
  EXPECT_EQ(*back.gib, 0.3);
  EXPECT_EQ(*back.duty, 0.7);
  EXPECT_EQ(back.effective_engine(), ContentionEngine::kCopy);
}

// The child runs exactly what the parent meant, also where the parent took the defaults.
TEST(ContentionChildArgs, SpellOutTheDefaultDutyAndEngine) {
  std::vector<std::string> args = ContentionChildArgs(With(1.0, std::nullopt));
  ASSERT_EQ(args.size(), 3u);
  EXPECT_EQ(args[1], "--test-contention-duty=1");
  EXPECT_EQ(args[2], "--test-contention-engine=kernel");
}

TEST(ContentionLabels, NameSizeDutyAndEngine) {
  auto labels = ContentionLabels(With(1.0, std::nullopt));
  ASSERT_EQ(labels.size(), 3u);
  EXPECT_EQ(labels.at("test_contention_gib"), "1");
  EXPECT_EQ(labels.at("test_contention_duty"), "1");
  EXPECT_EQ(labels.at("test_contention_engine"), "kernel");
}

TEST(ContentionLabels, SayTheCopyEnginesDidTheCopying) {
  ContentionOptions o = With(0.5, 0.25);
  o.engine = ContentionEngine::kCopy;
  auto labels = ContentionLabels(o);
  EXPECT_EQ(labels.at("test_contention_engine"), "copy");
  EXPECT_EQ(labels.at("test_contention_gib"), "0.5");
}

}  // namespace
}  // namespace warpwatch::worker
