// What the contention generator did, as numbers, as run labels and as one line for a log.
// CUDA-free.
#ifndef WARPWATCH_WORKER_CONTENTION_CONTENTION_REPORT_H_
#define WARPWATCH_WORKER_CONTENTION_CONTENTION_REPORT_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

namespace warpwatch::worker {

// End labels of a run under contention (start labels: contention_options.h).
inline constexpr const char* kContentionGbpsLabel = "test_contention_achieved_gbps";
inline constexpr const char* kContentionBusyLabel = "test_contention_busy_fraction";
inline constexpr const char* kContentionLaunchLabel = "test_contention_launch_us";
inline constexpr const char* kContentionErrorLabel = "test_contention_error";

struct ContentionReport {
  double bytes_moved = 0;   // DRAM traffic of the completed copies: 2 x bytes copied
  double seconds = 0;       // from the first launch to the last one's end (after the drain)
  double busy_seconds = 0;  // time inside bursts (== seconds at duty 1)
  int64_t launches = 0;
  size_t chunk_bytes = 0;     // bytes one launch copies (calibrated at start)
  double launch_seconds = 0;  // one launch alone, as calibrated at start
  std::string error;          // the generator's first CUDA error; empty when it ran to Stop()

  // bytes_moved / seconds in GB/s (1e9 bytes), 0 before any time passed.
  double achieved_gbps() const { return seconds > 0 ? bytes_moved / seconds * 1e-9 : 0; }
  double busy_fraction() const { return seconds > 0 ? busy_seconds / seconds : 0; }
};

// {test_contention_achieved_gbps: "2701.3", test_contention_busy_fraction: "0.999",
//  test_contention_launch_us: "187.2"} plus test_contention_error when there was one (cut to the
// 256 characters a label value may hold).
std::map<std::string, std::string> ContentionReportLabels(const ContentionReport& report);

// "test contention: 812.4 GB moved in 300.2 s = 2706.1 GB/s (busy 100.0 %, 4331 launches of 256
// MiB, 187.2 us each)", and the error when there was one.
std::string FormatContentionReport(const ContentionReport& report);

}  // namespace warpwatch::worker

#endif  // WARPWATCH_WORKER_CONTENTION_CONTENTION_REPORT_H_
