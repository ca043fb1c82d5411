// Tests of the progress line and the summary table.
#include "worker/cli/summary_table.h"

#include <gtest/gtest.h>

namespace warpwatch::worker {
namespace {

TEST(SummaryTable, ProgressLineNamesTheCase) {
  EXPECT_EQ(FormatProgress(12, 57, "reduce/warp_shuffle?block_size=256&n=16777216"),
            "[12/57] reduce/warp_shuffle?block_size=256&n=16777216");
}

TEST(SummaryTable, FormatsTimesInReadableUnits) {
  EXPECT_EQ(FormatSeconds(12.3e-6), "12.30 us");
  EXPECT_EQ(FormatSeconds(4.5678e-3), "4.568 ms");
  EXPECT_EQ(FormatSeconds(1.5), "1.500 s");
}

TEST(SummaryTable, RowsShowThroughputOccupancyLimiterAndStatus) {
  v1::Measurement ok;
  ok.mutable_case_()->set_canonical("memory.coalescing/copy?block_size=256&n=16777216");
  ok.set_status(v1::POINT_STATUS_OK);
  ok.mutable_stats()->set_median(50e-6);
  ok.set_bytes(134217728);
  ok.set_gbps(2684.4);
  ok.set_pct_of_peak_bandwidth(0.8);
  ok.mutable_occupancy()->set_block_size(256);
  ok.mutable_occupancy()->set_theoretical(1.0);
  ok.mutable_occupancy()->set_achieved(0.91);
  ok.mutable_occupancy()->set_limiter(v1::OCCUPANCY_LIMITER_WARPS);
  v1::Measurement failed;
  failed.mutable_case_()->set_canonical("testing.fault/trap?n=1024");
  failed.set_status(v1::POINT_STATUS_FAILED);
  failed.set_error("first run: cudaErrorLaunchFailure");
  std::string table = FormatSummaryTable({ok, failed});
  EXPECT_NE(table.find("2684.4 GB/s"), std::string::npos) << table;
  EXPECT_NE(table.find("80.0%"), std::string::npos) << table;
  EXPECT_NE(table.find("1.00 / 0.91"), std::string::npos) << table;
  EXPECT_NE(table.find("warps"), std::string::npos) << table;
  EXPECT_NE(table.find("50.00 us"), std::string::npos) << table;
  EXPECT_NE(table.find("FAILED: first run: cudaErrorLaunchFailure"), std::string::npos) << table;
}

}  // namespace
}  // namespace warpwatch::worker
