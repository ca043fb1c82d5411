// Labels and log line of a contention report.
#include "worker/contention/contention_report.h"

#include <cstdio>

namespace warpwatch::worker {
namespace {

constexpr size_t kMaxLabelValue = 256;  // the server's limit on a label value

std::string Fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

}  // namespace

std::map<std::string, std::string> ContentionReportLabels(const ContentionReport& r) {
  std::map<std::string, std::string> labels = {
      {kContentionGbpsLabel, Fixed(r.achieved_gbps(), 1)},
      {kContentionBusyLabel, Fixed(r.busy_fraction(), 3)},
      {kContentionLaunchLabel, Fixed(r.launch_seconds * 1e6, 1)}};
  if (!r.error.empty()) labels[kContentionErrorLabel] = r.error.substr(0, kMaxLabelValue);
  return labels;
}

std::string FormatContentionReport(const ContentionReport& r) {
  std::string line = "test contention: " + Fixed(r.bytes_moved * 1e-9, 1) + " GB moved in " +
                     Fixed(r.seconds, 1) + " s = " + Fixed(r.achieved_gbps(), 1) + " GB/s (busy " +
                     Fixed(r.busy_fraction() * 100, 1) + " %, " + std::to_string(r.launches) +
                     " launches of " + Fixed(static_cast<double>(r.chunk_bytes) / (1 << 20), 1) +
                     " MiB, " + Fixed(r.launch_seconds * 1e6, 1) + " us each alone)";
  if (!r.error.empty()) line += "; stopped early: " + r.error;
  return line;
}

}  // namespace warpwatch::worker
