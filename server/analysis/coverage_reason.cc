// File: server/analysis/coverage_reason.cc
#include "server/analysis/coverage_reason.h"

#include "common/series/comparable_series.h"
#include "server/detect/baseline.h"

namespace warpwatch::server::analysis {

std::string CoverageReason(const RunCase& c, const detect::SeriesDecision& d,
                           const detect::DetectionConfig& config) {
  if (d.judged) return "clock_masked";  // time and cycles disagree (attribution.h)
  const std::string why_not = detect::WhyNotGood(c.point, config);
  if (why_not.empty()) {
    return series::SettingsKeyOf(c.series_id).empty() ? "too_few_runs" : "not_comparable";
  }
  if (!c.point.ok) return "failed";
  if (!c.point.verified) return "unverified";
  if (why_not.rfind("throttled", 0) == 0) return "throttled";
  return "bad_median";
}

}  // namespace warpwatch::server::analysis
