// CompareRuns: per shared case change, U-test p, verdict and clocks.
#include "server/detect/compare_runs.h"

#include <cmath>
#include <cstdio>
#include <map>

#include "server/detect/baseline.h"
#include "server/detect/mann_whitney.h"

namespace warpwatch::server::detect {
namespace {

StatusOr<std::map<std::string, const CasePoint*>> IndexRun(const std::vector<CasePoint>& run,
                                                           const char* name) {
  std::map<std::string, const CasePoint*> index;
  for (const CasePoint& c : run) {
    if (c.case_key.empty()) {
      return InvalidArgumentError(std::string("CompareRuns: run ") + name +
                                  " has an empty case key");
    }
    if (!index.emplace(c.case_key, &c).second) {
      return InvalidArgumentError(std::string("CompareRuns: run ") + name + " lists case " +
                                  c.case_key + " twice");
    }
  }
  return index;
}

Move MoveOf(double change, double band) {
  if (change >= band) return Move::kUp;
  if (change <= -band) return Move::kDown;
  return Move::kSame;
}

std::string Percent(double fraction) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%+.2f %%", 100 * fraction);
  return buffer;
}

CaseComparison CompareCase(const CasePoint& a, const CasePoint& b, const CompareConfig& config) {
  CaseComparison c;
  c.case_key = a.case_key;
  c.median_a = a.point.median_seconds;
  c.median_b = b.point.median_seconds;
  c.sm_clock_mhz_a = a.point.sm_clock_mhz > 0 ? a.point.sm_clock_mhz : 0;
  c.sm_clock_mhz_b = b.point.sm_clock_mhz > 0 ? b.point.sm_clock_mhz : 0;
  if (!a.point.samples_seconds.empty() && !b.point.samples_seconds.empty()) {
    StatusOr<UTestResult> u = MannWhitneyUTest(b.point.samples_seconds, a.point.samples_seconds);
    if (u.ok()) c.u_test_p_value = u->p_value;
  }
  DetectionConfig goodness;
  goodness.max_throttled_fraction = config.max_throttled_fraction;
  const std::string why_a = WhyNotGood(a.point, goodness);
  const std::string why_b = WhyNotGood(b.point, goodness);
  if (!why_a.empty() || !why_b.empty()) {
    c.change = std::isfinite(c.median_a) && c.median_a > 0 ? c.median_b / c.median_a - 1 : NAN;
    c.reason = !why_a.empty() ? "run a: " + why_a : "run b: " + why_b;
    return c;
  }
  c.change = c.median_b / c.median_a - 1;
  ClockComparison clock = ClockComparison::kUnknown;
  double clock_change = 0;
  Move cycles = Move::kSame;
  if (c.sm_clock_mhz_a > 0 && c.sm_clock_mhz_b > 0) {
    clock_change = c.sm_clock_mhz_b / c.sm_clock_mhz_a - 1;
    c.cycles_change = (1 + c.change) * (1 + clock_change) - 1;
    cycles = MoveOf(*c.cycles_change, config.change_band);
    clock = std::fabs(clock_change) <= config.clock_tolerance ? ClockComparison::kSame
                                                              : ClockComparison::kChanged;
  }
  const Attribution attribution =
      Attribute(MoveOf(c.change, config.change_band), cycles, clock, clock_change);
  c.verdict = attribution.verdict;
  c.blame = attribution.blame;
  c.reason = attribution.reason;
  if (c.verdict == Verdict::kSame && std::fabs(c.change) >= config.noise_band) {
    c.verdict = Verdict::kUnsure;
    c.reason = "change " + Percent(c.change) + " is beyond the between-run noise band (" +
               Percent(config.noise_band) + ") but below the change band (" +
               Percent(config.change_band) + "): judge it against the series' history";
  }
  return c;
}

}  // namespace

StatusOr<RunComparison> CompareRuns(const std::vector<CasePoint>& a,
                                    const std::vector<CasePoint>& b, const CompareConfig& config) {
  ASSIGN_OR_RETURN(auto index_a, IndexRun(a, "a"));
  ASSIGN_OR_RETURN(auto index_b, IndexRun(b, "b"));
  RunComparison result;
  for (const CasePoint& case_a : a) {
    auto it = index_b.find(case_a.case_key);
    if (it == index_b.end()) {
      result.only_in_a.push_back(case_a.case_key);
    } else {
      result.shared.push_back(CompareCase(case_a, *it->second, config));
    }
  }
  for (const CasePoint& case_b : b) {
    if (index_a.count(case_b.case_key) == 0) result.only_in_b.push_back(case_b.case_key);
  }
  return result;
}

}  // namespace warpwatch::server::detect
