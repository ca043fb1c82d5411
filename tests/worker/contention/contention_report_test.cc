// Tests of how a contention report reads as labels and as a log line.
#include "worker/contention/contention_report.h"

#include <gtest/gtest.h>

namespace warpwatch::worker {
namespace {

ContentionReport TwoSecondsAtOneTbPerSecond() {
  ContentionReport r;
  r.bytes_moved = 2e12;
  r.seconds = 2;
  r.busy_seconds = 1;
  r.launches = 4000;
  r.chunk_bytes = size_t{256} << 20;
  r.launch_seconds = 187.25e-6;
  return r;
}

TEST(ContentionReport, AchievedBandwidthIsBytesOverWallTime) {
  ContentionReport r = TwoSecondsAtOneTbPerSecond();
  EXPECT_DOUBLE_EQ(r.achieved_gbps(), 1000);
  EXPECT_DOUBLE_EQ(r.busy_fraction(), 0.5);
  EXPECT_EQ(ContentionReport().achieved_gbps(), 0);
}

TEST(ContentionReportLabels, CarryBandwidthBusyFractionAndLaunchLength) {
  auto labels = ContentionReportLabels(TwoSecondsAtOneTbPerSecond());
  EXPECT_EQ(labels.at("test_contention_achieved_gbps"), "1000.0");
  EXPECT_EQ(labels.at("test_contention_busy_fraction"), "0.500");
  EXPECT_EQ(labels.at("test_contention_launch_us"), "187.2");
  EXPECT_EQ(labels.count("test_contention_error"), 0u);
}

// A label value holds at most 256 characters on the server.
TEST(ContentionReportLabels, AnErrorIsKeptWithinALabelsLength) {
  ContentionReport r = TwoSecondsAtOneTbPerSecond();
  r.error = std::string(1000, 'e');
  auto labels = ContentionReportLabels(r);
  EXPECT_EQ(labels.at("test_contention_error").size(), 256u);
}

TEST(FormatContentionReport, SaysHowHardItPushed) {
  ContentionReport r = TwoSecondsAtOneTbPerSecond();
  EXPECT_EQ(FormatContentionReport(r),
            "test contention: 2000.0 GB moved in 2.0 s = 1000.0 GB/s (busy 50.0 %, 4000 launches "
            "of 256.0 MiB, 187.2 us each alone)");
  r.error = "cudaErrorLaunchFailure";
  EXPECT_NE(FormatContentionReport(r).find("stopped early: cudaErrorLaunchFailure"),
            std::string::npos);
}

}  // namespace
}  // namespace warpwatch::worker
