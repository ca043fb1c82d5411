// CompareRuns: two runs side by side, case by case. With only two runs there is no baseline
// spread to judge a change against, so the verdict uses fixed bands taken from repeated runs of
// identical code (docs/regressions.md): SAME inside the noise band, SLOWER/FASTER beyond the
// change band, UNSURE between them.
#ifndef WARPWATCH_SERVER_DETECT_COMPARE_RUNS_H_
#define WARPWATCH_SERVER_DETECT_COMPARE_RUNS_H_

#include <optional>
#include <string>
#include <vector>

#include "common/status/status.h"
#include "server/detect/attribution.h"
#include "server/detect/run_point.h"
#include "server/detect/verdict.h"

namespace warpwatch::server::detect {

struct CompareConfig {
  // |change| below this is SAME: the p95 of |change| between back-to-back runs of identical code
  // on one H100 is 1.6 %.
  double noise_band = 0.02;
  // |change| at or above this is SLOWER/FASTER: the largest change seen between back-to-back
  // runs of identical code on one H100 is 4.2 %. Between the two bands: UNSURE.
  double change_band = 0.05;
  double clock_tolerance = 0.01;         // as DetectionConfig
  double max_throttled_fraction = 0.05;  // as DetectionConfig
};

// One case measured in a run.
struct CasePoint {
  std::string case_key;  // canonical case key: "family/variant?axis=v&..."
  RunPoint point;
};

struct CaseComparison {
  std::string case_key;
  double median_a = 0;  // seconds
  double median_b = 0;
  double change = 0;          // median_b / median_a - 1 (positive: b is slower)
  double sm_clock_mhz_a = 0;  // 0 = unknown
  double sm_clock_mhz_b = 0;
  std::optional<double> cycles_change;   // when both clocks are known
  std::optional<double> u_test_p_value;  // b's samples against a's; evidence only
  Verdict verdict = Verdict::kUnsure;    // of b relative to a
  Blame blame = Blame::kNone;
  std::string reason;
};

struct RunComparison {
  std::vector<CaseComparison> shared;  // cases in both runs, in a's order
  std::vector<std::string> only_in_a;  // case keys, in input order
  std::vector<std::string> only_in_b;
};

// Compares run b (the newer, normally) with run a. A case that is not good in either run
// (failed, unverified, throttled, NaN or non-positive median) is listed with UNSURE and why.
// Errors: INVALID_ARGUMENT when a run lists one case key twice or a case key is empty.
StatusOr<RunComparison> CompareRuns(const std::vector<CasePoint>& a,
                                    const std::vector<CasePoint>& b,
                                    const CompareConfig& config = {});

}  // namespace warpwatch::server::detect

#endif  // WARPWATCH_SERVER_DETECT_COMPARE_RUNS_H_
