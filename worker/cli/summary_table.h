// Text output of `warpwatch-worker run`: the progress line and the final summary table. CUDA-free.
#ifndef WARPWATCH_WORKER_CLI_SUMMARY_TABLE_H_
#define WARPWATCH_WORKER_CLI_SUMMARY_TABLE_H_

#include <string>
#include <vector>

#include "warpwatch/v1/measurement.pb.h"

namespace warpwatch::worker {

// "[12/57] reduce/warp_shuffle?block_size=256&n=16777216" (done is 1-based).
std::string FormatProgress(size_t done, size_t total, const std::string& canonical);

// Human time: "12.3 us", "4.56 ms", "1.23 s".
std::string FormatSeconds(double seconds);

// One row per measurement: case, median time, GB/s or GFLOP/s (whichever the case counts; GB/s
// when both), % of peak bandwidth, theoretical/achieved occupancy, limiter, status (with the
// error or skip reason, shortened). Columns are padded to their widest cell.
std::string FormatSummaryTable(const std::vector<v1::Measurement>& measurements);

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_CLI_SUMMARY_TABLE_H_
