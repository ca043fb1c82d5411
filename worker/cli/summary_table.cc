// Progress line and summary table.
#include "worker/cli/summary_table.h"

#include <algorithm>
#include <cstdio>

namespace warpwatch::worker {
namespace {

std::string Printf(const char* format, double value) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, value);
  return buf;
}

const char* LimiterName(v1::OccupancyLimiter limiter) {
  switch (limiter) {
    case v1::OCCUPANCY_LIMITER_WARPS: return "warps";
    case v1::OCCUPANCY_LIMITER_REGISTERS: return "registers";
    case v1::OCCUPANCY_LIMITER_SHARED_MEMORY: return "shared";
    case v1::OCCUPANCY_LIMITER_BLOCKS: return "blocks";
    default: return "-";
  }
}

std::string StatusCell(const v1::Measurement& m) {
  std::string status;
  switch (m.status()) {
    case v1::POINT_STATUS_OK: status = "OK"; break;
    case v1::POINT_STATUS_FAILED: status = "FAILED"; break;
    case v1::POINT_STATUS_SKIPPED: status = "SKIPPED"; break;
    default: status = "?"; break;
  }
  if (m.status() == v1::POINT_STATUS_OK && m.throttled_fraction() > 0) {
    status += Printf(" (%.0f%% throttled)", m.throttled_fraction() * 100);
  }
  if (!m.error().empty()) {
    std::string error = m.error();
    if (error.size() > 90) error = error.substr(0, 87) + "...";
    status += ": " + error;
  }
  return status;
}

std::vector<std::string> Row(const v1::Measurement& m) {
  const bool ok = m.status() == v1::POINT_STATUS_OK;
  std::string rate = "-";
  if (ok && m.bytes() > 0) {
    rate = Printf("%.1f GB/s", m.gbps());
  } else if (ok && m.flops() > 0) {
    rate = Printf("%.1f GFLOP/s", m.gflops());
  }
  std::string peak = ok && m.pct_of_peak_bandwidth() > 0
                         ? Printf("%.1f%%", m.pct_of_peak_bandwidth() * 100) : "-";
  std::string occupancy = "-";
  if (m.has_occupancy() && m.occupancy().block_size() > 0) {
    occupancy = Printf("%.2f", m.occupancy().theoretical()) + " / " +
                (m.occupancy().has_achieved() ? Printf("%.2f", m.occupancy().achieved()) : "-");
  }
  return {m.case_().canonical(), ok ? FormatSeconds(m.stats().median()) : "-", rate, peak,
          occupancy, m.has_occupancy() ? LimiterName(m.occupancy().limiter()) : "-",
          StatusCell(m)};
}

}  // namespace

std::string FormatProgress(size_t done, size_t total, const std::string& canonical) {
  return "[" + std::to_string(done) + "/" + std::to_string(total) + "] " + canonical;
}

std::string FormatSeconds(double s) {
  if (s < 1e-3) return Printf("%.2f us", s * 1e6);
  if (s < 1) return Printf("%.3f ms", s * 1e3);
  return Printf("%.3f s", s);
}

std::string FormatSummaryTable(const std::vector<v1::Measurement>& measurements) {
  std::vector<std::vector<std::string>> rows = {
      {"case", "median", "throughput", "% peak", "occ theo/achv", "limiter", "status"}};
  for (const v1::Measurement& m : measurements) rows.push_back(Row(m));
  std::vector<size_t> width(rows[0].size(), 0);
  for (const auto& row : rows) {
    for (size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
  }
  std::string out;
  for (const auto& row : rows) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) {
      line += row[i];
      if (i + 1 < row.size()) line += std::string(width[i] - row[i].size() + 2, ' ');
    }
    out += line + "\n";
  }
  return out;
}

}  // namespace warpwatch::worker
